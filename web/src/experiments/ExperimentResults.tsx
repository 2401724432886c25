import { NotYet } from '../NotYet';

/** Placeholder until issue 24's part lands. */
export function ExperimentResults({ experimentId }: { experimentId: number }) {
  void experimentId;
  return <NotYet what="Results" />;
}
