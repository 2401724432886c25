import { readFileSync, writeFileSync } from 'node:fs';
import * as Bourne from '@hapi/bourne';
import { execute, type GraphQLSchema } from 'graphql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { SingleBar, Presets } from 'cli-progress';
import { parseId, type Caller } from '../auth/access';
import { AppError, requestErrors } from '../errors';
import { buildAppSchema } from '../graphql/schema';
import { FeatureFlagService } from '../modules/feature-flag/feature-flag.service';
import { FeatureFlagStore } from '../modules/feature-flag/feature-flag.store';
import { isFlagKey } from '../modules/feature-flag/feature-flag.validation';
import { MAX_LIMIT } from '../pagination';
import { exceedsBodySize, MAX_BODY_BYTES } from '../rest/body';
import { envelope } from '../rest/envelope';
import { restInput } from '../rest/input';
import { routes } from '../rest/routes';
import type { Route } from '../rest/route';
import { isPlainObject } from '../validation/python';
import { sameJson } from '../validation/same-json';
import { CommandFailed } from './command-failed';
import { cohortReferences, exportCohorts, importCohorts, renameCohorts } from './cohorts';
import { operatorContext, operatorFor } from './operator-context';

export function projectIdOption(value: string | undefined): number {
  const id = parseId(value?.trim());
  if (!id) throw new Error('--project <id> is required (a positive integer).');
  return id;
}

/** The REST list row: the export is what `GET /api/projects/:id/feature_flags/` shows, page after page. */
function restListRow(): Extract<Route, { kind: 'query' }> {
  const row = routes.find((route) => route.method === 'GET' && route.path === '/api/projects/:project_id/feature_flags');
  if (!row || row.kind !== 'query') throw new Error('The route table has no flag list row.');
  return row;
}

async function runOperation(
  schema: GraphQLSchema,
  row: Extract<Route, { kind: 'query' }>,
  em: EntityManager,
  caller: Caller,
  query: Record<string, string>,
  projectId: number,
) {
  const variables = row.operation.variables({ params: { project_id: String(projectId) }, query, input: {} });
  const result = await execute({
    schema,
    document: row.operation.document,
    contextValue: operatorContext(em, caller),
    variableValues: variables,
  });
  if (result.errors?.length) throw result.errors[0].originalError ?? result.errors[0];
  return result.data as { page: { count: number; results: Array<Record<string, unknown>> } };
}

/** Every non-deleted flag of the project, newest first, in the REST list's envelope (one page holding all). */
export async function exportFlags(em: EntityManager, projectId: number, email: string | undefined) {
  const caller = await operatorFor(em, projectId, email);
  const schema = await buildAppSchema();
  const row = restListRow();
  const results: Array<Record<string, unknown>> = [];
  for (;;) {
    const { page } = await runOperation(schema, row, em, caller, { limit: String(MAX_LIMIT), offset: String(results.length) }, projectId);
    results.push(...page.results);
    if (page.results.length === 0 || results.length >= page.count) break;
  }
  const url = new URL(`http://cli.invalid/api/projects/${projectId}/feature_flags/`);
  const cohorts = await exportCohorts(schema, em, caller, projectId, results);
  return { ...envelope({ count: results.length, results, limit: Math.max(results.length, 1), offset: 0 }, url), cohorts };
}

/**
 * What an import takes from each entry (REST names); everything else is the source project's
 * (id, created_by, created_at, version, experiment_set, usage_dashboard, analytics_dashboards,
 * can_edit, computed fields, PostHog-only fields) and is ignored. See README "CLI".
 */
export const IMPORTED_FIELDS = [
  'key',
  'name',
  'filters',
  'active',
  'ensure_experience_continuity',
  'rollback_conditions',
  'performed_rollback',
  'tags',
] as const;

export type ImportStatus = 'created' | 'updated' | 'unchanged' | 'skipped' | 'error';

export interface ImportResult {
  index: number;
  key: string | null;
  status: ImportStatus;
  id?: number;
  reason?: string;
  error?: { type: string; code: string; detail: string; attr: string | null };
}

/**
 * Our export, PostHog's list answer (`{count, next, previous, results}`), or its `results` array alone.
 * Parsed as REST parses a body (`__proto__` keys refused); V8's parser builds any depth without
 * recursion, and each flag's fields are then held to the API's depth limit by the service.
 */
export function entriesOf(text: string, file: string): { flags: unknown[]; cohorts: unknown[] } {
  let data: unknown;
  try {
    data = Bourne.parse(text, { protoAction: 'error' });
  } catch (error) {
    throw new Error(`${file} is not JSON: ${(error as Error).message}`, { cause: error });
  }
  if (Array.isArray(data)) return { flags: data, cohorts: [] };
  if (isPlainObject(data) && Array.isArray(data.results)) {
    if (data.cohorts !== undefined && data.cohorts !== null && !Array.isArray(data.cohorts))
      throw new Error(`${file}: "cohorts" must be a list.`);
    return { flags: data.results, cohorts: (data.cohorts as unknown[] | undefined) ?? [] };
  }
  throw new Error(`${file} holds neither a list of flags nor an object with a "results" list.`);
}

class Unchanged extends Error {}

/** A flag's key as the service will read it (numbers become text), for matching; null when it has none. */
function keyOf(value: unknown): string | null {
  if (typeof value === 'string') return value.trim();
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : null;
}

const errorBody = (error: unknown) => {
  if (error instanceof AppError) return error.toJSON();
  throw error;
};

/**
 * Creates or updates each flag by key, through the flag service (the API's validation, edit rights,
 * key rules), one savepoint per flag. All or nothing: if any flag fails, the caller's transaction
 * is rolled back and the report is still printed (CommandFailed). Entries are written last to first,
 * so a newest-first export keeps its order in the target's newest-first list; results are in file order.
 */
export async function importFlags(em: EntityManager, projectId: number, file: string, email: string | undefined) {
  const { flags: entries, cohorts: cohortEntries } = entriesOf(readFileSync(file, 'utf8'), file);
  const caller = await operatorFor(em, projectId, email);
  const schema = await buildAppSchema();
  const cohorts = await importCohorts(em, schema, caller, projectId, cohortEntries);
  const results: ImportResult[] = entries.map((_, index) => ({ index, key: null, status: 'error' }));
  const seen = new Set<string>();
  const bar = process.stderr.isTTY
    ? new SingleBar({ format: 'flags:import {bar} {value}/{total} {key}', hideCursor: true }, Presets.shades_classic)
    : null;
  bar?.start(entries.length, 0, { key: '' });
  try {
    for (let index = entries.length - 1; index >= 0; index--) {
      const entry = entries[index];
      const result = results[index];
      const key = isPlainObject(entry) ? keyOf(entry.key) : null;
      result.key = key;
      bar?.increment({ key: key ?? '' });
      if (!isPlainObject(entry)) {
        result.error = { type: 'validation_error', code: 'invalid_input', detail: 'Each flag must be a JSON object.', attr: null };
        continue;
      }
      if (entry.deleted === true) {
        Object.assign(result, { status: 'skipped', reason: 'The flag is deleted in the file.' });
        continue;
      }
      if (key !== null && seen.has(key)) {
        result.error = { type: 'validation_error', code: 'unique', detail: 'The file holds another flag with this key.', attr: 'key' };
        continue;
      }
      if (key !== null) seen.add(key);
      const body = Object.fromEntries(IMPORTED_FIELDS.filter((field) => field in entry).map((field) => [field, entry[field]]));
      // The API's body limit holds for each flag: one REST create could not carry more.
      if (exceedsBodySize(body)) {
        result.error = requestErrors.tooLarge(MAX_BODY_BYTES).toJSON();
        continue;
      }
      // Cohort ids are the source project's: each must be one of the file's cohorts, renamed to the target's id.
      const foreign = cohortReferences(body.filters).filter((id) => !cohorts.ids.has(id));
      if (foreign.length) {
        const refused = cohorts.results.some((cohort) => cohort.source_id === foreign[0]);
        const detail = `Cohort with id ${foreign[0]} ${refused ? 'was refused (see "cohorts")' : "is not among the file's cohorts"}.`;
        result.error = { type: 'validation_error', code: 'cohort_does_not_exist', detail, attr: 'filters' };
        continue;
      }
      if ('filters' in body) body.filters = renameCohorts(body.filters, cohorts.ids);
      try {
        Object.assign(result, await importOne(em, schema, caller, projectId, key, body));
      } catch (error) {
        result.status = 'error';
        result.error = errorBody(error);
      }
    }
  } finally {
    bar?.stop();
  }
  const summary = Object.fromEntries(
    (['created', 'updated', 'unchanged', 'skipped', 'error'] as const).map((status) => [
      status,
      results.filter((r) => r.status === status).length,
    ]),
  );
  const cohortErrors = cohorts.results.filter((r) => r.status === 'error').length;
  const output = { project_id: projectId, written: summary.error === 0 && cohortErrors === 0, summary, results, cohorts: cohorts.results };
  if (summary.error > 0 || cohortErrors > 0) {
    const refused = [
      summary.error > 0 ? `${summary.error} of ${entries.length} flags` : null,
      cohortErrors > 0 ? `${cohortErrors} of ${cohortEntries.length} cohorts` : null,
    ];
    // Rolled back with the rest: nothing was created or updated. The report says what would have been
    // (would_create, would_update); what would have been created has no id, as none was committed.
    const notWritten = <T extends { status: string; id?: number }>(items: T[]) =>
      items.map((item) => {
        if (item.status === 'updated') return { ...item, status: 'would_update' };
        if (item.status !== 'created') return item;
        const { id: _rolledBack, ...rest } = item;
        return { ...rest, status: 'would_create' };
      });
    const { created, updated, ...others } = summary;
    throw new CommandFailed(`${refused.filter(Boolean).join(' and ')} were refused; nothing was written.`, {
      ...output,
      written: false,
      summary: { would_create: created, would_update: updated, ...others },
      results: notWritten(results),
      cohorts: notWritten(cohorts.results),
    });
  }
  return output;
}

async function importOne(
  em: EntityManager,
  schema: GraphQLSchema,
  caller: Caller,
  projectId: number,
  key: string | null,
  body: Record<string, unknown>,
): Promise<Partial<ImportResult>> {
  // A key that cannot be a flag's (NUL, say, which the database would refuse to compare) names no
  // stored flag: the create below refuses it with the API's message.
  const existingId = key && isFlagKey(key) ? await FeatureFlagStore.liveIdByKey(em, projectId, key) : null;
  if (existingId === null) {
    const flag = await em.transactional((flagEm) =>
      FeatureFlagService.create(operatorContext(flagEm, caller), projectId, restInput(schema, 'FeatureFlagCreateInput', body, false)),
    );
    return { status: 'created', id: flag.id };
  }
  try {
    await em.transactional(async (flagEm) => {
      const before = await FeatureFlagStore.importedFields(flagEm, existingId);
      await FeatureFlagService.update(
        operatorContext(flagEm, caller),
        projectId,
        existingId,
        restInput(schema, 'FeatureFlagUpdateInput', body, false),
      );
      // Same stored values (the file matches, or differs only in what validation normalises): undo the version bump.
      if (sameJson(await FeatureFlagStore.importedFields(flagEm, existingId), before)) throw new Unchanged();
    });
    return { status: 'updated', id: existingId };
  } catch (error) {
    if (error instanceof Unchanged) return { status: 'unchanged', id: existingId };
    throw error;
  }
}

export function writeOrReturn(output: Record<string, unknown>, out: string | undefined): Record<string, unknown> {
  if (!out) return output;
  writeFileSync(out, `${JSON.stringify(output, null, 2)}\n`);
  return { written: out, count: output.count };
}
