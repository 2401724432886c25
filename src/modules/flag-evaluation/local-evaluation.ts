import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { servedFilters } from '../../evaluation/served-filters';
import type { FeatureFlag } from '../feature-flag/feature-flag.entity';
import { loadFlagsAndGroupTypes } from './evaluation-subject';

export interface Definitions {
  /** The exact bytes served: identical while nothing changes (fixed key order, flags by id, group types by index). */
  body: Buffer;
  etag: string;
}

/** rest-flags.md §4.5 MinimalFlag. */
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

/** What server SDKs poll (evaluation.md §7): every non-deleted flag, inactive ones included, and every group type. */
export async function localEvaluationDefinitions(em: EntityManager, projectId: number): Promise<Definitions> {
  const { flags, groupTypes } = await loadFlagsAndGroupTypes(em, projectId);
  const body = Buffer.from(
    JSON.stringify({
      flags: flags.map((flag) => minimalFlag(flag, projectId)),
      group_type_mapping: Object.fromEntries([...groupTypes].map(([index, name]) => [String(index), name])),
      // SPEC-GAP: cohorts are not built yet, so no flag references one and `send_cohorts` has nothing to add.
      cohorts: {},
    }),
  );
  // SPEC-GAP: evaluation.md §7.3 asks for a strong ETag of the whole SHA-256; rest-flags.md §4.5 and
  // acceptance 43 for `W/"<first 32 hex>"`. The acceptance list decides; both forms revalidate.
  const etag = `W/"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`;
  return { body, etag };
}

const opaque = (tag: string) =>
  tag
    .trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1');

/** `If-None-Match`: a comma list; each entry compared without `W/` and quotes; `*` matches anything. */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const current = opaque(etag);
  return header.split(',').some((entry) => entry.trim() === '*' || opaque(entry) === current);
}
