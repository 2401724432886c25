import { dashboards } from './dashboards';
import { definitions } from './definitions';
import { evaluation } from './evaluation';
import { flagCreate } from './flag-create';
import { flagReads } from './flag-reads';
import { flagsLookup } from './flags-lookup';
import { ingestion } from './ingestion';
import { peer } from './peer';
import { ofrepEvaluation, remoteEvaluation } from './remote-evaluation';
import type { Scenario } from './types';
import { workers } from './workers';

/** In running order: the HTTP floors' rows first, then the rows with floors of their own. */
export const scenarios: Scenario[] = [
  definitions,
  flagsLookup,
  flagReads,
  peer,
  flagCreate,
  ingestion,
  remoteEvaluation,
  ofrepEvaluation,
  evaluation,
  dashboards,
  workers,
];
