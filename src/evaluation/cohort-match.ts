import type { PropertyFilter } from './property-match';

/**
 * Cohort membership (docs/cohorts.md), pure. A dynamic cohort is a property group
 * `{type: AND|OR, values}` whose `values` are all groups or all leaves; a leaf is a person filter
 * or a reference to another cohort, and `negation: true` inverts it. An empty group matches.
 */
export interface PropertyGroup {
  type: 'AND' | 'OR';
  values: Array<PropertyGroup | PropertyFilter>;
}

/** What evaluation needs of a project's non-deleted cohorts: dynamic ones carry their property group. */
export type CohortDefinitions = ReadonlyMap<number, { isStatic: boolean; properties: PropertyGroup | null }>;

/** Whether a value of a property group is itself a group (else a leaf). */
export const isPropertyGroup = (value: unknown): value is PropertyGroup =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && Array.isArray((value as PropertyGroup).values);

/** A cohort leaf's value as an id: an integer or a string of digits; anything else names no cohort. */
export function cohortIdOfValue(value: unknown): number | null {
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * A membership test for one subject. `staticMembership` lists the static cohorts the subject's
 * person belongs to, or is a function that throws when they could not be read; `matchPerson`
 * decides a person leaf (and may throw likewise). A cohort missing from `definitions` (deleted,
 * other project, never existed) has no members. Answers are memoised per cohort, and a reference
 * cycle (refused on save, but possible by hand) counts as "not a member" on the way round. A test
 * that throws leaves nothing behind: the next flag asking the same cohort throws too.
 */
export function cohortMembership(
  definitions: CohortDefinitions,
  staticMembership: ReadonlySet<number> | ((id: number) => boolean),
  matchPerson: (filter: PropertyFilter) => boolean,
): (cohortId: number) => boolean {
  const known = new Map<number, boolean>();
  const visiting = new Set<number>();
  const isStaticMember = typeof staticMembership === 'function' ? staticMembership : (id: number) => staticMembership.has(id);

  const inCohort = (id: number): boolean => {
    const answer = known.get(id);
    if (answer !== undefined) return answer;
    const cohort = definitions.get(id);
    if (!cohort || visiting.has(id)) return false;
    if (cohort.isStatic) return isStaticMember(id);
    visiting.add(id);
    let member: boolean;
    try {
      member = cohort.properties === null ? false : matchGroup(cohort.properties);
    } finally {
      visiting.delete(id);
    }
    known.set(id, member);
    return member;
  };

  const matchLeaf = (leaf: PropertyFilter): boolean => {
    let matched: boolean;
    if (leaf.type === 'person') matched = matchPerson(leaf);
    else if (leaf.type === 'cohort') {
      const id = cohortIdOfValue(leaf.value);
      matched = id !== null && inCohort(id);
    } else matched = false; // behavioural and unknown leaves are never true
    return leaf.negation === true ? !matched : matched;
  };

  const matchGroup = (group: PropertyGroup): boolean => {
    const values = group.values;
    const test = (value: PropertyGroup | PropertyFilter) => (isPropertyGroup(value) ? matchGroup(value) : matchLeaf(value));
    return group.type === 'OR' ? values.length === 0 || values.some(test) : values.every(test);
  };

  return inCohort;
}

/** The ids a property group references directly (cohort leaves), in order of appearance. */
export function referencedCohorts(group: PropertyGroup | null | undefined): number[] {
  const ids: number[] = [];
  const walk = (value: unknown) => {
    if (isPropertyGroup(value)) value.values.forEach(walk);
    else if (value && typeof value === 'object' && (value as PropertyFilter).type === 'cohort') {
      const id = cohortIdOfValue((value as PropertyFilter).value);
      if (id !== null) ids.push(id);
    }
  };
  walk(group);
  return ids;
}

/** The cohort ids a flag's conditions name (`filters.groups[].properties[]` of type cohort). */
export function flagCohortIds(filters: Record<string, unknown> | null | undefined): number[] {
  const ids: number[] = [];
  const groups = filters && Array.isArray(filters.groups) ? filters.groups : [];
  for (const group of groups) {
    const properties = group && typeof group === 'object' ? (group as Record<string, unknown>).properties : null;
    if (!Array.isArray(properties)) continue;
    for (const property of properties) {
      if (property && typeof property === 'object' && property.type === 'cohort') {
        const id = cohortIdOfValue(property.value);
        if (id !== null) ids.push(id);
      }
    }
  }
  return ids;
}

/**
 * docs/cohorts.md: every dynamic cohort reachable from `roots` through dynamic cohorts,
 * id → property group, by id. Static and unknown cohorts are left out (SDKs ask the server then),
 * and so are those `sendable` refuses (with what only they reach).
 */
export function dynamicCohortsFrom(
  roots: Iterable<number>,
  definitions: CohortDefinitions,
  sendable: (id: number) => boolean = () => true,
): Map<number, PropertyGroup> {
  const found = new Map<number, PropertyGroup>();
  const pending = [...roots];
  while (pending.length) {
    const id = pending.pop()!;
    if (found.has(id)) continue;
    const cohort = definitions.get(id);
    if (!cohort || cohort.isStatic || cohort.properties === null || !sendable(id)) continue;
    found.set(id, cohort.properties);
    for (const reference of referencedCohorts(cohort.properties)) pending.push(reference);
  }
  return new Map([...found].sort(([a], [b]) => a - b));
}
