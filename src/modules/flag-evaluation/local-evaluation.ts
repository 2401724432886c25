import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { servedFilters } from '../../evaluation/served-filters';
import type { FeatureFlag } from '../feature-flag/feature-flag.entity';
import { dynamicCohortsFrom, flagCohortIds, type CohortDefinitions } from '../../evaluation/cohort-match';
import { CohortExpansion, MAX_EXPANDED_CONDITIONS } from '../../evaluation/cohort-expansion';
import { loadCohortDefinitions, loadFlagsAndGroupTypes, type ProjectFlags } from './evaluation-subject';

export interface Definitions {
  /** The exact bytes served: identical while nothing changes (fixed key order, flags by id, group types by index). */
  body: Buffer;
  etag: string;
  /** What the body was built from, which remote evaluation reads (remote-evaluation.service.ts). */
  project: ProjectFlags;
  /** The body and ETag with `?send_cohorts` (docs/cohorts.md); the same object when no flag references a dynamic cohort. */
  withCohorts: { body: Buffer; etag: string };
  /** The project's non-deleted cohorts (loadSubject may be given them instead of reading them). */
  cohorts: CohortDefinitions;
  /** Each of those cohorts measured once per change (blast radius reads it; docs/cohorts.md §2). */
  expansion: CohortExpansion;
}

/** docs/rest-api.md §4.5 MinimalFlag. */
function minimalFlag(flag: FeatureFlag, projectId: number) {
  return {
    id: flag.id,
    team_id: projectId,
    name: flag.name,
    key: flag.key,
    filters: servedFilters(flag.filters),
    deleted: flag.deleted,
    active: flag.active,
    ensure_experience_continuity: flag.ensureExperienceContinuity,
  };
}

function served(payload: unknown): { body: Buffer; etag: string } {
  const body = Buffer.from(JSON.stringify(payload));
  // SPEC-GAP: a weak ETag of the body's SHA-256 cut to 32 hex digits, `W/"<first 32 hex>"` (docs/rest-api.md §4.5),
  // not a strong one of the whole hash; SDKs revalidate with either form.
  const etag = `W/"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`;
  return { body, etag };
}

/**
 * What server SDKs poll (docs/evaluation.md §7): every non-deleted flag, inactive ones included, and
 * every group type; with `send_cohorts`, every dynamic non-deleted cohort the flags reference,
 * nested ones included (docs/cohorts.md §4). Three statements: flags, group types, cohorts.
 */
export async function localEvaluationDefinitions(em: EntityManager, projectId: number): Promise<Definitions> {
  const [project, cohorts] = await Promise.all([loadFlagsAndGroupTypes(em, projectId), loadCohortDefinitions(em, projectId)]);
  const { flags, groupTypes } = project;
  const payload = {
    flags: flags.map((flag) => minimalFlag(flag, projectId)),
    group_type_mapping: Object.fromEntries([...groupTypes].map(([index, name]) => [String(index), name])),
    cohorts: {},
  };
  const plain = served(payload);
  const expansion = new CohortExpansion(cohorts).measureAll();
  // SPEC-GAP: a cohort past the expansion limit, or going round a cycle, is not sent: SDKs expand
  // references without memoising (or forever), so they ask the server for flags that use it, as for
  // static cohorts (docs/cohorts.md §4).
  const sendable = (id: number) => {
    const { size, cyclic } = expansion.of(id);
    return !cyclic && size <= MAX_EXPANDED_CONDITIONS;
  };
  const sent = dynamicCohortsFrom(
    flags.flatMap((flag) => flagCohortIds(servedFilters(flag.filters))),
    cohorts,
    sendable,
  );
  const withCohorts =
    sent.size === 0 ? plain : served({ ...payload, cohorts: Object.fromEntries([...sent].map(([id, group]) => [String(id), group])) });
  return { ...plain, project, withCohorts, cohorts, expansion };
}

const opaque = (tag: string) =>
  tag
    .trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1');

/** `If-None-Match`: a comma list; each entry compared without `W/` and quotes; `*` matches anything. */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  // What SDKs send: the tag as they received it.
  if (header === etag) return true;
  const current = opaque(etag);
  return header.split(',').some((entry) => entry.trim() === '*' || opaque(entry) === current);
}
