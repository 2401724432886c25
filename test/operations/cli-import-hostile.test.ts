import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inProcessCli, type CliRun } from '../helpers/cli';
import type { World } from '../helpers/factories';
import { HOSTILE_BODIES, HOSTILE_VALUES, nestedArraysText, UNSTORABLE_VALUES } from '../helpers/hostile-input';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * Regressions of issue 22 ("No request can stall the service"), part 6: `flags:import` stored what
 * the API refuses (JSON nested 2,500 levels), after which every write to the flag answered 500 and
 * the project's own export could no longer be imported. The import now goes through the API's
 * rules, so the hostile corpus the route walk sends over HTTP is fed through it too: each value,
 * as each field of an imported flag, is either imported and then writable over HTTP, or refused
 * with the API's error body and nothing stored.
 */
let app: TestApp;
let world: World;
let scratch: string;
let files = 0;

jest.setTimeout(180_000);

beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'flags-hostile-'));
  app = await startTestApp();
  world = await app.factories.world();
});

afterAll(async () => {
  await app?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const run = (args: string[]) => inProcessCli().run(app.orm.config.get('clientUrl') as string, args);

/** A file holding `text`; `values` replace the strings `"@@0"`, `"@@1"`… of it by their JSON text (deep ones cannot be stringified). */
function file(text: string, values: string[] = []): string {
  const target = path.join(scratch, `import-${++files}.json`);
  writeFileSync(
    target,
    values.reduce((out, value, i) => out.replaceAll(`"@@${i}"`, () => value), text),
  );
  return target;
}

const importInto = (projectId: number, target: string) => run(['flags:import', '--project', String(projectId), target]);

async function flagsOf(projectId: number) {
  const res = await app.request(`/api/projects/${projectId}/feature_flags/?limit=1000`, { key: world.owner.key });
  expect(res.status).toBe(200);
  return res.body as { count: number; results: Array<Record<string, unknown>> };
}

/** The fields a PUT sends back: what the flag holds now. */
const WRITABLE = ['key', 'name', 'filters', 'active', 'ensure_experience_continuity', 'rollback_conditions', 'performed_rollback', 'tags'];

/** Every write a client makes to a flag answers 2xx: PATCH, PUT of what GET shows, GraphQL's update, soft delete. */
async function expectWritable(projectId: number, id: number) {
  const url = `/api/projects/${projectId}/feature_flags/${id}/`;
  const shown = await app.request(url, { key: world.owner.key });
  const patch = await app.request(url, { method: 'PATCH', key: world.owner.key, body: { name: 'patched' } });
  const put = await app.request(url, {
    method: 'PUT',
    key: world.owner.key,
    body: Object.fromEntries(WRITABLE.map((field) => [field, shown.body[field]])),
  });
  const graphql = await app.graphql(
    'mutation($p: ID!, $id: Int!) { updateFeatureFlag(projectId: $p, id: $id, input: {name: "graphql"}) { id name } }',
    { p: String(projectId), id },
    world.owner.key,
  );
  const remove = await app.request(url, { method: 'PATCH', key: world.owner.key, body: { deleted: true } });
  expect({ id, shown: shown.status, patch: patch.status, put: put.status, graphql: graphql.body, remove: remove.status }).toEqual({
    id,
    shown: 200,
    patch: 200,
    put: 200,
    graphql: { data: { updateFeatureFlag: { id, name: 'graphql' } } },
    remove: 200,
  });
}

const report = (result: CliRun) => JSON.parse(result.stdout);

/** The flag fields an import takes, each a flag of its own holding the value (payloads: the boolean flag's payload). */
const FIELDS = [
  'key',
  'name',
  'filters',
  'payloads',
  'rollback_conditions',
  'tags',
  'active',
  'ensure_experience_continuity',
  'performed_rollback',
];
const ATTR: Record<string, string> = { payloads: 'filters' };

function flagHolding(field: string): Record<string, unknown> {
  if (field === 'key') return { key: '@@0' };
  if (field === 'payloads')
    return { key: 'in-payloads', filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: '@@0' } } };
  return { key: `in-${field.replace(/_/g, '-')}`, [field]: '@@0' };
}

const CORPUS: Array<[string, string]> = [
  ...[...HOSTILE_VALUES, ...UNSTORABLE_VALUES].map(
    (value) => [JSON.stringify(value).slice(0, 40), JSON.stringify(value)] as [string, string],
  ),
  ['999 levels (the API accepts)', nestedArraysText(999)],
  ['1,000 levels (the API refuses)', nestedArraysText(1000)],
  ['100,000 levels', nestedArraysText(100_000)],
];

describe('the hostile corpus as fields of imported flags', () => {
  it.each(CORPUS)('%s: imported and writable, or refused with the API error and nothing stored', async (_label, valueText) => {
    const project = await app.factories.project(world.organization, 'Hostile');
    const result = await importInto(project.id, file(JSON.stringify(FIELDS.map(flagHolding)), [valueText]));
    const { results } = report(result);
    const refused = results.filter((entry: { status: string }) => entry.status === 'error');
    for (const entry of refused) {
      const field = FIELDS[entry.index];
      expect({ field, error: entry.error }).toEqual({
        field,
        error: {
          type: expect.stringMatching(/^(validation_error|invalid_request)$/),
          code: expect.not.stringMatching(/^error$/),
          detail: expect.stringMatching(/\w/),
          attr: ATTR[field] ?? field,
        },
      });
    }
    if (refused.length > 0) {
      expect(result.stderr).toBe(`error: ${refused.length} of ${FIELDS.length} flags were refused; nothing was written.\n`);
      expect((await flagsOf(project.id)).count).toBe(0);
      // Nothing was committed, so nothing reported has an id.
      expect(results.filter((entry: { id?: number }) => entry.id !== undefined)).toEqual([]);
    }
    // What was not refused imports on its own, and every write to it then succeeds.
    const accepted = FIELDS.filter((_, index) => results[index].status !== 'error');
    const again = await importInto(project.id, file(JSON.stringify(accepted.map(flagHolding)), [valueText]));
    expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: '' });
    const created = report(again).results as Array<{ status: string; id: number }>;
    expect(created.map((entry) => entry.status)).toEqual(accepted.map(() => 'created'));
    for (const { id } of created) await expectWritable(project.id, id);
  });

  it.each(HOSTILE_BODIES)('refuses the file %s with a message and stores nothing', async (text) => {
    const project = await app.factories.project(world.organization, 'Hostile file');
    const result = await importInto(project.id, file(text));
    expect(result.code).toBe(1);
    if (text === '[1]') {
      expect(result.stderr).toBe('error: 1 of 1 flags were refused; nothing was written.\n');
      expect(report(result).results[0].error.detail).toBe('Each flag must be a JSON object.');
    } else {
      expect(result.stderr).toMatch(
        /^error: .*import-\d+\.json (is not JSON|holds neither a list of flags nor an object with a "results" list)/,
      );
    }
    expect((await flagsOf(project.id)).count).toBe(0);
  });

  it('refuses a `__proto__` key as the REST body parser does', async () => {
    const project = await app.factories.project(world.organization, 'Prototype');
    const result = await importInto(project.id, file('[{"key":"proto","filters":{"groups":[],"__proto__":{"x":1}}}]'));
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toMatch(/is not JSON: .*prototype/);
    expect((await flagsOf(project.id)).count).toBe(0);
  });

  it("refuses a flag larger than the API's 1 MiB body with its 413 body", async () => {
    const project = await app.factories.project(world.organization, 'Large');
    const result = await importInto(project.id, file(JSON.stringify([{ key: 'small' }, { key: 'large', name: 'x'.repeat(1_100_000) }])));
    expect(result.code).toBe(1);
    expect(report(result).results).toEqual([
      { index: 0, key: 'small', status: 'would_create' },
      {
        index: 1,
        key: 'large',
        status: 'error',
        error: { type: 'invalid_request', code: 'request_too_large', detail: 'Request body exceeds 1048576 bytes.', attr: null },
      },
    ]);
    expect((await flagsOf(project.id)).count).toBe(0);
  });

  it('refuses cohorts the API refuses (NUL in a name, nesting past the limit) without reaching the database with them', async () => {
    const project = await app.factories.project(world.organization, 'Hostile cohorts');
    const leaf = { type: 'person', key: 'plan', value: 'pro', operator: 'exact' };
    const text = JSON.stringify({
      results: [
        { key: 'uses-cohorts', filters: { groups: [{ properties: [{ type: 'cohort', key: 'id', value: 2 }], rollout_percentage: 100 }] } },
      ],
      cohorts: [
        { id: 1, name: 'nul\u0000name', filters: { properties: { type: 'AND', values: [leaf] } } },
        { id: 2, name: 'deep', filters: { properties: { type: 'AND', values: [{ ...leaf, value: '@@0' }] } } },
      ],
    });
    const result = await importInto(project.id, file(text, [nestedArraysText(5000)]));
    expect(result.code).toBe(1);
    const { cohorts } = report(result);
    expect(cohorts.map((cohort: { error: { code: string; attr: string } }) => [cohort.error.code, cohort.error.attr])).toEqual([
      ['null_characters_not_allowed', 'name'],
      ['max_depth', 'filters'],
    ]);
    expect((await app.request(`/api/projects/${project.id}/cohorts/`, { key: world.owner.key })).body.count).toBe(0);
  });
});

describe('JSON nested 2,500 levels', () => {
  const DEEP = nestedArraysText(2500);
  const deepObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

  it('regression: flags:import stored rollback_conditions nested 2,500 levels, and then every write to the flag answered 500', async () => {
    const project = await app.factories.project(world.organization, 'Deep import');
    const result = await importInto(
      project.id,
      file(JSON.stringify([{ key: 'fine' }, { key: 'deep', rollback_conditions: '@@0' }]), [deepObjects(2500)]),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('error: 1 of 2 flags were refused; nothing was written.\n');
    expect(report(result)).toMatchObject({
      written: false,
      results: [
        { index: 0, key: 'fine', status: 'would_create' },
        {
          index: 1,
          key: 'deep',
          status: 'error',
          error: {
            type: 'validation_error',
            code: 'max_depth',
            detail: 'Ensure this value is nested no more than 999 levels deep.',
            attr: 'rollback_conditions',
          },
        },
      ],
    });
    expect(report(result).results[0].id).toBeUndefined();
    expect((await flagsOf(project.id)).count).toBe(0);
  });

  it('regression: a flag stored that deep before the limit answered 500 to every write, and its export could not be imported', async () => {
    const project = await app.factories.project(world.organization, 'Deep stored');
    const created = await app.request(`/api/projects/${project.id}/feature_flags/`, {
      method: 'POST',
      key: world.owner.key,
      body: { key: 'old', filters: { groups: [{ properties: [], rollout_percentage: 50 }] } },
    });
    // Old data, written as the import used to: deeper than the API accepts, in both JSON fields.
    await app.orm.em
      .getConnection()
      .execute(`update feature_flag set rollback_conditions = ?::jsonb, filters = jsonb_set(filters, '{extra}', ?::jsonb) where id = ?`, [
        deepObjects(2500),
        DEEP,
        created.body.id,
      ]);

    const exported = path.join(scratch, 'deep-export.json');
    expect(await run(['flags:export', '--project', String(project.id), '--out', exported])).toEqual({
      code: 0,
      stdout: `${JSON.stringify({ written: exported, count: 1 })}\n`,
      stderr: '',
    });
    expect(readFileSync(exported, 'utf8')).toContain('"extra"');
    const target = await app.factories.project(world.organization, 'Deep target');
    const again = await importInto(target.id, exported);
    expect(again.code).toBe(1);
    expect(report(again).results[0].error).toEqual({
      type: 'validation_error',
      code: 'max_depth',
      detail: 'Ensure this value is nested no more than 999 levels deep.',
      attr: 'filters',
    });
    expect((await flagsOf(target.id)).count).toBe(0);

    // Every write succeeds while the values stay as they are; sending them back is the body limit's clear 400.
    const url = `/api/projects/${project.id}/feature_flags/${created.body.id}/`;
    const shown = await app.request(url, { key: world.owner.key });
    expect(shown.status).toBe(200);
    expect((await app.request(url, { method: 'PATCH', key: world.owner.key, body: { name: 'renamed', tags: ['old'] } })).status).toBe(200);
    const graphql = await app.graphql(
      'mutation($p: ID!, $id: Int!) { updateFeatureFlag(projectId: $p, id: $id, input: {active: false}) { active } }',
      { p: String(project.id), id: created.body.id },
      world.owner.key,
    );
    expect(graphql.body).toEqual({ data: { updateFeatureFlag: { active: false } } });
    const putBack = await app.request(url, {
      method: 'PUT',
      key: world.owner.key,
      body: JSON.stringify(Object.fromEntries(WRITABLE.map((field) => [field, shown.body[field]]))),
    });
    expect([putBack.status, putBack.body.code]).toEqual([400, 'parse_error']);
    expect((await app.request(url, { method: 'PATCH', key: world.owner.key, body: { deleted: true } })).status).toBe(200);

    // Replacing the deep values repairs the flag: then it exports and imports like any other.
    const repaired = await app.request(url, {
      method: 'PUT',
      key: world.owner.key,
      body: { key: 'old', deleted: false, rollback_conditions: null, filters: { groups: [{ properties: [], rollout_percentage: 50 }] } },
    });
    expect(repaired.status).toBe(200);
    await expectWritable(project.id, created.body.id);
    await app.request(url, { method: 'PATCH', key: world.owner.key, body: { deleted: false } });
    expect((await run(['flags:export', '--project', String(project.id), '--out', exported])).code).toBe(0);
    expect(report(await importInto(target.id, exported)).summary).toMatchObject({ created: 1, error: 0 });
  });
});
