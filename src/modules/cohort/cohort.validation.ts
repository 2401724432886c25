import { fieldErrors } from '../../errors';
import { cohortIdOfValue, referencedCohorts, type PropertyGroup } from '../../evaluation/cohort-match';
import { hasField, parseBoolean, parseString, refuseUnstorableJson, requireObject } from '../../validation/fields';
import { isPlainObject } from '../../validation/python';
import { checkPropertiesRules, checkPropertyRegex } from '../feature-flag/flag-filters.properties';
import type { CheckedProperty } from '../feature-flag/flag-filters.shapes';
import { cohortErrors } from './cohort.errors';
import { checkExpandedSize } from './cohort.size';

export interface CohortChanges {
  name?: string;
  description?: string;
  isStatic?: boolean;
  /** `{properties: <group>}` for dynamic cohorts; null for static ones. */
  filters?: { properties: PropertyGroup } | null;
  deleted?: boolean;
}

/** A project's cohorts as the reference checks see them: every one, deleted included. */
export type ProjectCohorts = ReadonlyMap<number, { name: string; deleted: boolean; filters: Record<string, unknown> | null }>;

const MAX_NAME = 400;
const MAX_DEPTH = 20;

/**
 * docs/cohorts.md: `{type: AND|OR, values}`, values all groups or all leaves. Returns the
 * person leaves (for the flag-filter operator and value rules) and the cohort ids referenced.
 */
function checkGroup(raw: unknown, depth: number, persons: CheckedProperty[], references: unknown[]): void {
  if (!isPlainObject(raw) || (raw.type !== 'AND' && raw.type !== 'OR') || !Array.isArray(raw.values) || depth > MAX_DEPTH) {
    throw cohortErrors.invalidFilters();
  }
  const groups = raw.values.filter((value) => isPlainObject(value) && hasField(value, 'values'));
  if (groups.length > 0 && groups.length !== raw.values.length) throw cohortErrors.invalidFilters();
  if (groups.length > 0) {
    for (const group of groups) checkGroup(group, depth + 1, persons, references);
    return;
  }
  raw.values.forEach((leaf, i) => {
    if (!isPlainObject(leaf)) throw cohortErrors.invalidFilters();
    if (leaf.negation !== undefined && leaf.negation !== null && typeof leaf.negation !== 'boolean') throw cohortErrors.invalidFilters();
    if (leaf.type === 'behavioral') return; // stored, never evaluated; flags refuse such cohorts
    if (leaf.type === 'cohort') {
      references.push(leaf.value);
      return;
    }
    if (leaf.type !== 'person' || typeof leaf.key !== 'string' || leaf.key === '') throw cohortErrors.invalidFilters();
    if (leaf.operator !== undefined && leaf.operator !== null && typeof leaf.operator !== 'string') throw cohortErrors.invalidFilters();
    persons.push({
      path: `properties.values[${i}]`,
      key: leaf.key,
      value: leaf.value,
      type: 'person',
      operator: (leaf.operator as string | null | undefined) ?? null,
      groupTypeIndex: null,
    });
  });
}

/** Longest reference chain a cohort may sit in (docs/cohorts.md): evaluation follows references depth first. */
export const MAX_REFERENCE_CHAIN = 20;

const referencesOf = (filters: Record<string, unknown> | null | undefined) =>
  referencedCohorts(isPlainObject(filters) ? (filters.properties as PropertyGroup) : null)
    .map(cohortIdOfValue)
    .filter((id): id is number => id !== null);

/**
 * SPEC-GAP: the longest chain of references through the cohort being saved (`self`, null on
 * create) with these references: the chain above it (cohorts that reach it) plus the chain below.
 * Iterative, each cohort once; a cycle made by hand counts its edges once.
 */
function longestChainThrough(self: number | null, references: number[], cohorts: ProjectCohorts): number {
  const SELF = self ?? -1;
  const down = new Map<number, number[]>();
  for (const [id, cohort] of cohorts) if (id !== SELF) down.set(id, referencesOf(cohort.filters));
  down.set(SELF, references);
  const up = new Map<number, number[]>();
  for (const [id, targets] of down) {
    for (const target of targets) {
      const sources = up.get(target);
      if (sources) sources.push(id);
      else up.set(target, [id]);
    }
  }
  const longest = (graph: Map<number, number[]>) => {
    const length = new Map<number, number>();
    const stack: Array<{ id: number; expanded: boolean }> = [{ id: SELF, expanded: false }];
    while (stack.length) {
      const top = stack[stack.length - 1];
      const next = graph.get(top.id) ?? [];
      if (!top.expanded && length.has(top.id)) {
        stack.pop(); // reached again through another path: already measured, or in progress (a cycle)
        continue;
      }
      if (!top.expanded) {
        top.expanded = true;
        length.set(top.id, 0);
        for (const id of next) if (!length.has(id)) stack.push({ id, expanded: false });
        continue;
      }
      stack.pop();
      length.set(top.id, Math.max(0, ...next.map((id) => 1 + (length.get(id) ?? 0))));
    }
    return length.get(SELF) ?? 0;
  };
  return longest(up) + longest(down);
}

/** Whether `start`'s references lead back to `self` (a cohort being saved with these references). */
function reachesSelf(self: number, start: number[], cohorts: ProjectCohorts): boolean {
  const seen = new Set<number>();
  const pending = [...start];
  while (pending.length) {
    const id = pending.pop()!;
    if (id === self) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    const filters = cohorts.get(id)?.filters;
    pending.push(...referencedCohorts(isPlainObject(filters) ? (filters.properties as PropertyGroup) : null));
  }
  return false;
}

/**
 * Dynamic `filters` (docs/cohorts.md): the shape, then person leaves by the flag-filter
 * operator and value rules (V4a–V4e), then every referenced cohort (non-deleted, this project),
 * then cycles, chain length and expanded size. `self` is the cohort being updated (null on create),
 * `name` the name it will have.
 */
export async function validateCohortFilters(
  raw: unknown,
  self: number | null,
  name: string,
  cohorts: ProjectCohorts,
): Promise<{ properties: PropertyGroup }> {
  if (!isPlainObject(raw) || !hasField(raw, 'properties')) throw cohortErrors.invalidFilters();
  const persons: CheckedProperty[] = [];
  const references: unknown[] = [];
  checkGroup(raw.properties, 0, persons, references);
  await checkPropertiesRules(persons, async () => [], 'filters');
  for (const person of persons) checkPropertyRegex(person, false);
  const ids: number[] = [];
  for (const value of references) {
    const id = cohortIdOfValue(value);
    const cohort = id === null ? undefined : cohorts.get(id);
    if (!cohort || cohort.deleted) throw cohortErrors.doesNotExist(value);
    ids.push(id!);
  }
  if (self !== null && reachesSelf(self, ids, cohorts)) throw cohortErrors.circular();
  if (longestChainThrough(self, ids, cohorts) > MAX_REFERENCE_CHAIN) throw cohortErrors.chainTooLong(MAX_REFERENCE_CHAIN);
  const properties = raw.properties as unknown as PropertyGroup;
  checkExpandedSize(self, name, properties, cohorts);
  refuseUnstorableJson(raw, 'filters');
  return { properties };
}

/**
 * A cohort write (input keyed by GraphQL field names), in the field table's order. `current` is
 * the stored cohort on update. Static cohorts keep `filters` null whatever is sent.
 */
export async function validateCohortInput(
  body: unknown,
  current: { id: number; name: string; isStatic: boolean } | null,
  loadCohorts: () => Promise<ProjectCohorts>,
): Promise<CohortChanges> {
  const input = requireObject(body);
  const out: CohortChanges = {};
  if (hasField(input, 'name')) out.name = parseString(input.name, 'name', { maxLength: MAX_NAME })!;
  else if (!current) throw fieldErrors.required('name');
  if (hasField(input, 'description')) out.description = parseString(input.description, 'description', { allowBlank: true })!;

  let isStatic = current?.isStatic ?? false;
  if (hasField(input, 'isStatic')) {
    const sent = parseBoolean(input.isStatic, 'is_static')!;
    if (current && sent !== current.isStatic) throw cohortErrors.isStaticImmutable();
    isStatic = sent;
    if (!current) out.isStatic = sent;
  }

  // SPEC-GAP: `filters` sent for a static cohort is ignored without being validated (docs/cohorts.md §1).
  if (isStatic) {
    if (!current) out.filters = null;
  } else if (hasField(input, 'filters')) {
    const name = out.name ?? current!.name; // a create without a name was refused above
    out.filters = await validateCohortFilters(input.filters, current?.id ?? null, name, await loadCohorts());
  } else if (!current) {
    throw fieldErrors.required('filters');
  }

  if (hasField(input, 'deleted')) out.deleted = parseBoolean(input.deleted, 'deleted')!;
  return out;
}

/** `POST /cohorts/:id/persons/`: a non-empty list of at most 10 000 strings. */
export function parseDistinctIds(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > 10_000 || !value.every((id) => typeof id === 'string')) {
    throw cohortErrors.invalidDistinctIds();
  }
  return [...new Set(value as string[])];
}
