import type { EntityManager } from '@mikro-orm/postgresql';
import { personBag, SubjectDataUnavailable, type EvaluationSubject } from '../../evaluation/evaluate-flag';
import { storableText } from '../../db/sql';
import { MAX_DISTINCT_ID } from '../ingestion/capture.event';
import type { FeatureFlag } from '../feature-flag/feature-flag.entity';
import { FeatureFlagStore } from '../feature-flag/feature-flag.store';
import { CohortStore, type CohortDefinitionRow } from '../cohort/cohort.store';
import { GroupStore } from '../group/group.store';
import { PersonStore } from '../person/person.store';
import { cohortMembership, type CohortDefinitions, type PropertyGroup } from '../../evaluation/cohort-match';
import { storedMatcher, str } from '../../evaluation/property-match';
import { dataRecord } from '../../data-record';

/** What evaluations of a project read (also cached with the SDK definitions, local-evaluation.ts). */
export type ProjectFlags = Awaited<ReturnType<typeof loadFlagsAndGroupTypes>>;

/** What every evaluation and the SDK payload read: the non-deleted flags by id, and the group types. Two statements, no unit of work. */
export async function loadFlagsAndGroupTypes(
  em: EntityManager,
  projectId: number,
): Promise<{ flags: FeatureFlag[]; groupTypes: Map<number, string> }> {
  const [flags, groupTypes] = await Promise.all([FeatureFlagStore.live(em, projectId), GroupStore.typeNames(em, projectId)]);
  return { flags, groupTypes };
}

/** Properties a remote-evaluation request sends (docs/remote-evaluation.md ("The answers")): laid key by key over the stored ones, the request winning. */
export interface PropertyOverlay {
  personProperties: Record<string, unknown>;
  /** By group type name; applies to the group whose key the request sent for that type. */
  groupProperties: Record<string, Record<string, unknown>>;
}

/** A project's non-deleted cohorts as evaluation reads them (docs/cohorts.md): one statement. */
export async function loadCohortDefinitions(em: EntityManager, projectId: number): Promise<CohortDefinitions> {
  return cohortDefinitionsFrom(await CohortStore.liveDefinitions(em, projectId));
}

function cohortDefinitionsFrom(rows: CohortDefinitionRow[]): CohortDefinitions {
  return new Map(
    rows.map((row) => [
      Number(row.id),
      { isStatic: row.is_static, properties: row.is_static ? null : ((row.filters?.properties ?? null) as PropertyGroup | null) },
    ]),
  );
}

/**
 * Whether a stored person could have this distinct id: capture stores none with a NUL or longer than
 * MAX_DISTINCT_ID characters, so such an id is looked up nowhere (a megabyte id would also weigh on
 * the statement it shares with other requests, src/db/batched-lookup.ts).
 */
const couldBeStored = (id: string) => storableText(id) && (id.length <= MAX_DISTINCT_ID || Array.from(id).length <= MAX_DISTINCT_ID);

/** Told when the stored person or groups could not be read (remote evaluation answers what it still can). */
export type UnreadSubject = (what: 'person' | 'groups', error: unknown) => void;

/**
 * The stored person behind `distinctId` and the requested groups, as committed now
 * (docs/evaluation.md §4.1): one statement for the person (with the static cohorts it belongs to, and the project's
 * cohorts unless `cohorts` is given), one for the groups. Names that are not group types are ignored.
 * `overlay` (remote evaluation) is laid over the stored properties before cohorts are decided.
 *
 * With `unread` (and `cohorts` given), a statement that fails is reported there instead of thrown, and
 * the subject is marked as unread: only the request's properties are known, and a flag that needs
 * anything stored (another property, a static cohort's members) throws when evaluated
 * (docs/remote-evaluation.md, "When something cannot be read"). Static membership is read in the
 * person's statement, so it cannot fail apart from the person's properties.
 */
export async function loadSubject(
  em: EntityManager,
  projectId: number,
  distinctId: string,
  requested: Record<string, string>,
  groupTypes: ReadonlyMap<number, string>,
  now: Date,
  overlay?: PropertyOverlay,
  cohorts?: CohortDefinitions,
  unread?: UnreadSubject,
): Promise<EvaluationSubject> {
  let personProperties: Record<string, unknown> = {};
  let staticCohorts: number[] = [];
  let personUnread = false;
  let definitions = cohorts;
  const storable = couldBeStored(distinctId);
  const tolerant = unread !== undefined && definitions !== undefined;
  if (storable || !definitions) {
    const person = await PersonStore.forEvaluation(em, projectId, storable ? distinctId : null, !definitions).catch((error: unknown) => {
      if (!tolerant) throw error;
      unread!('person', error);
      personUnread = true;
      return null;
    });
    if (person?.properties) personProperties = person.properties;
    staticCohorts = person?.staticCohorts ?? [];
    definitions ??= cohortDefinitionsFrom(person?.cohorts ?? []);
  }

  const passed = [...groupTypes]
    .filter(([, name]) => Object.prototype.hasOwnProperty.call(requested, name))
    .map(([index, name]) => ({ index, name, key: requested[name] }));
  // Group type names are the caller's (capture stores any).
  const groups: EvaluationSubject['groups'] = dataRecord();
  for (const { name, key } of passed) groups[name] = { key, properties: {} };
  const wanted = passed.filter(({ key }) => storableText(key));
  if (wanted.length) {
    const found = await GroupStore.propertiesOf(em, projectId, wanted).catch((error: unknown) => {
      if (!tolerant) throw error;
      unread!('groups', error);
      for (const { name } of wanted) groups[name].unread = true;
      return [];
    });
    for (const { index, key, properties } of found) {
      const name = groupTypes.get(index)!;
      if (groups[name]?.key === key) groups[name].properties = properties;
    }
  }

  if (overlay) {
    personProperties = { ...personProperties, ...overlay.personProperties };
    for (const [name, properties] of Object.entries(overlay.groupProperties)) {
      if (Object.hasOwn(groups, name)) groups[name].properties = { ...groups[name].properties, ...properties };
    }
  }
  return subjectWithCohorts(distinctId, personProperties, groups, definitions!, personUnread ? null : new Set(staticCohorts), now);
}

/**
 * An evaluation subject whose cohort membership is decided over `personProperties` (plus
 * `distinct_id`, docs/evaluation.md §4.1) and the static cohorts its person belongs to (docs/cohorts.md §3).
 * Remote evaluation builds one over request-overlaid properties the same way. `staticCohorts` null:
 * the stored person could not be read, so `personProperties` are only the request's, and a cohort
 * that needs more (a static cohort, a person leaf on another key) throws `SubjectDataUnavailable`.
 */
export function subjectWithCohorts(
  distinctId: string,
  personProperties: Record<string, unknown>,
  groups: EvaluationSubject['groups'],
  cohorts: CohortDefinitions,
  staticCohorts: ReadonlySet<number> | null,
  now: Date,
): EvaluationSubject {
  const subject: EvaluationSubject = { distinctId, personProperties, groups, inCohort: (id) => inCohort(id) };
  let inCohort: (id: number) => boolean;
  if (staticCohorts !== null) {
    inCohort = cohortMembership(cohorts, staticCohorts, (filter) => storedMatcher(filter)(personBag(subject), now));
    return subject;
  }
  inCohort = cohortMembership(
    cohorts,
    () => {
      throw new SubjectDataUnavailable("the static cohorts' members");
    },
    (filter) => {
      const bag = personBag(subject);
      const key = typeof filter.key === 'string' ? filter.key : str(filter.key);
      if (!Object.prototype.hasOwnProperty.call(bag, key)) throw new SubjectDataUnavailable(`the stored property ${JSON.stringify(key)}`);
      return storedMatcher(filter)(bag, now);
    },
  );
  subject.personUnread = true;
  return subject;
}
