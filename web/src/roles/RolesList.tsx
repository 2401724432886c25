import { NotYet } from '../NotYet';

/** Placeholder until issue 24's part lands. */
export function RolesList() {
  return <NotYet what="Roles" />;
}
