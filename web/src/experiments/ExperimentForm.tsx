import { NotYet } from '../NotYet';

/** Placeholder until issue 24's part lands. */
export function ExperimentForm() {
  return <NotYet what="Experiment form" />;
}
