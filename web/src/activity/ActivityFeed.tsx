import { NotYet } from '../NotYet';

/** Placeholder until issue 24's part lands. */
export function ActivityFeed() {
  return <NotYet what="Activity" />;
}
