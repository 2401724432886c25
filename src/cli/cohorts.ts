import { execute, type GraphQLSchema } from 'graphql';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../auth/access';
import { AppError, requestErrors, ValidationError } from '../errors';
import { CohortService } from '../modules/cohort/cohort.service';
import { CohortStore } from '../modules/cohort/cohort.store';
import { cohortIdOf } from '../modules/feature-flag/flag-filters.properties';
import { exceedsBodySize, MAX_BODY_BYTES } from '../rest/body';
import { restInput } from '../rest/input';
import { routes } from '../rest/routes';
import { copyJson } from '../validation/copy-json';
import { isStorableText } from '../validation/fields';
import { isPlainObject } from '../validation/python';
import { sameJson } from '../validation/same-json';
import { operatorContext } from './operator-context';

/**
 * Every object inside a JSON value, in order of appearance (parents before children). Iterative:
 * an import file's values may nest deeper than the stack allows, until the service refuses them.
 */
function objectsIn(value: unknown): Array<Record<string, unknown>> {
  const found: Array<Record<string, unknown>> = [];
  const pending = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (isPlainObject(item)) found.push(item);
    if (item === null || typeof item !== 'object') continue;
    const children = Object.values(item);
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]);
  }
  return found;
}

/** Every cohort id a JSON value names as a `{"type": "cohort", "value": <id>}` property, in order of appearance. */
export function cohortReferences(value: unknown): number[] {
  const found = new Set<number>();
  for (const object of objectsIn(value)) {
    const id = object.type === 'cohort' ? cohortIdOf(object.value) : null;
    if (id !== null) found.add(id);
  }
  return [...found];
}

/** The same value with each cohort property's id replaced through `map` (ids the map lacks are kept). */
export function renameCohorts(value: unknown, map: Map<number, number>): unknown {
  const out = copyJson(value);
  for (const object of objectsIn(out)) {
    const id = object.type === 'cohort' ? cohortIdOf(object.value) : null;
    if (id !== null && map.has(id)) object.value = map.get(id);
  }
  return out;
}

function cohortRow() {
  const row = routes.find((route) => route.method === 'GET' && route.path === '/api/projects/:project_id/cohorts/:id');
  if (!row || row.kind !== 'query') throw new Error('The route table has no cohort row.');
  return row;
}

/** One cohort as `GET /api/projects/:project_id/cohorts/:id/` shows it, or null when the project has none with that id. */
async function restCohort(schema: GraphQLSchema, em: EntityManager, caller: Caller, projectId: number, id: number) {
  const row = cohortRow();
  const variables = row.operation.variables({ params: { project_id: String(projectId), id: String(id) }, query: {}, input: {} });
  const result = await execute({
    schema,
    document: row.operation.document,
    contextValue: operatorContext(em, caller),
    variableValues: variables,
  });
  const error = result.errors?.[0]?.originalError ?? result.errors?.[0];
  if (error instanceof AppError && error.status === 404) return null;
  if (error) throw error;
  return (result.data as { item: Record<string, unknown> }).item;
}

/**
 * The cohorts the flags use, nested references included, as the REST API shows them; cohorts a
 * cohort refers to come before it, so an import can create them in file order.
 */
export async function exportCohorts(
  schema: GraphQLSchema,
  em: EntityManager,
  caller: Caller,
  projectId: number,
  flags: Array<Record<string, unknown>>,
) {
  const done = new Map<number, Record<string, unknown> | null>();
  const ordered: Array<Record<string, unknown>> = [];
  const visit = async (id: number, path: number[]) => {
    if (done.has(id) || path.includes(id)) return;
    const cohort = await restCohort(schema, em, caller, projectId, id);
    done.set(id, cohort);
    if (!cohort) return;
    for (const inner of cohortReferences(cohort.filters)) await visit(inner, [...path, id]);
    ordered.push(cohort);
  };
  for (const flag of flags) for (const id of cohortReferences(flag.filters)) await visit(id, []);
  return ordered;
}

export interface CohortImportResult {
  index: number;
  /** The cohort's id in the file. */
  source_id: number | null;
  name: string | null;
  status: 'created' | 'updated' | 'unchanged' | 'error';
  id?: number;
  note?: string;
  error?: { type: string; code: string; detail: string; attr: string | null };
}

/**
 * Cohorts of an import file, by name: a non-deleted cohort of the target with the same name is
 * reused (updated when its description or definition differ), else one is created. References
 * between cohorts are renamed to the target's ids, so the file must list a cohort before those
 * that use it (exports do). Static cohorts arrive without members: persons are the source's.
 */
export async function importCohorts(em: EntityManager, schema: GraphQLSchema, caller: Caller, projectId: number, entries: unknown[]) {
  const ids = new Map<number, number>();
  const results: CohortImportResult[] = [];
  for (const [index, entry] of entries.entries()) {
    const result: CohortImportResult = { index, source_id: null, name: null, status: 'error' };
    results.push(result);
    try {
      if (!isPlainObject(entry)) throw new ValidationError('invalid_input', 'Each cohort must be a JSON object.');
      result.source_id = cohortIdOf(entry.id);
      result.name = typeof entry.name === 'string' ? entry.name.trim() : null;
      const unknown = cohortReferences(entry.filters).filter((id) => !ids.has(id));
      if (unknown.length) {
        throw new ValidationError(
          'cohort_does_not_exist',
          `Cohort with id ${unknown[0]} is not listed before this cohort in the file.`,
          'filters',
        );
      }
      const body: Record<string, unknown> = { name: entry.name, description: entry.description ?? '', is_static: entry.is_static ?? false };
      if (entry.is_static !== true) body.filters = renameCohorts(entry.filters, ids);
      // The API's body limit holds for each cohort: one REST create could not carry more.
      if (exceedsBodySize(body)) throw requestErrors.tooLarge(MAX_BODY_BYTES);
      // A name the database cannot hold (NUL) names no stored cohort: the create refuses it with the API's message.
      const existingId = result.name && isStorableText(result.name) ? await CohortStore.liveIdByName(em, projectId, result.name) : null;
      const wrote = await em.transactional(async (cohortEm) => {
        const ctx = operatorContext(cohortEm, caller);
        if (existingId === null)
          return {
            status: 'created' as const,
            cohort: await CohortService.create(ctx, projectId, restInput(schema, 'CohortCreateInput', body, false)),
          };
        const current = (await restCohort(schema, cohortEm, caller, projectId, existingId))!;
        if (current.is_static !== body.is_static) {
          throw new ValidationError(
            'invalid_input',
            `The project's cohort '${result.name}' has is_static ${String(current.is_static)}; it cannot change.`,
            'is_static',
          );
        }
        const same =
          sameJson(current.description ?? null, body.description ?? null) &&
          (body.is_static === true || sameJson(current.filters, body.filters));
        if (same) return { status: 'unchanged' as const, cohort: { id: existingId } };
        const { is_static: _fixed, ...changes } = body;
        return {
          status: 'updated' as const,
          cohort: await CohortService.update(ctx, projectId, existingId, restInput(schema, 'CohortUpdateInput', changes, false)),
        };
      });
      Object.assign(result, { status: wrote.status, id: wrote.cohort.id });
      if (entry.is_static === true && wrote.status === 'created')
        result.note = 'A static cohort arrives without members; add them with POST …/cohorts/:id/persons/.';
      if (result.source_id !== null) ids.set(result.source_id, wrote.cohort.id);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      result.error = error.toJSON();
    }
  }
  return { ids, results };
}
