import { NotYet } from '../NotYet';

/** Placeholder until issue 24's part lands. */
export function CohortForm() {
  return <NotYet what="Cohort form" />;
}
