import { NotYet } from '../NotYet';

/** Placeholder until issue 24's part lands. */
export function CohortPage() {
  return <NotYet what="Cohort" />;
}
