import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { COMMAND_HELP } from '../../src/cli/commands';
import { inProcessCli, lookedIn, transpiledCli, type CliRun } from '../helpers/cli';
import { startTestApp, type TestApp } from '../helpers/test-app';
import type { World } from '../helpers/factories';

/**
 * `flags:export` and `flags:import` (README "CLI") as an operator runs them, beside a running
 * service over the same database; what they write is read back over REST. The CLI's entry runs in
 * this process (src/cli/run.ts); the progress test starts it as its own process, on a terminal and
 * on a pipe.
 */
let cli: ReturnType<typeof transpiledCli>;
let app: TestApp;
let world: World;
let scratch: string;

jest.setTimeout(120_000);

const POSTHOG_EXPORT = path.resolve(__dirname, '../fixtures/posthog-feature-flags.json');
const IMPORTED = ['key', 'name', 'filters', 'active', 'ensure_experience_continuity', 'rollback_conditions', 'performed_rollback', 'tags'];

const run = (args: string[]) => inProcessCli().run(app.orm.config.get('clientUrl'), args);

const json = (result: CliRun) => {
  // The report on standard output says why an import failed.
  expect({ stderr: result.stderr, code: result.code, ...(result.code ? { stdout: result.stdout } : {}) }).toEqual({ stderr: '', code: 0 });
  expect(result.stdout.endsWith('\n') && result.stdout.trim().split('\n').length === 1).toBe(true);
  return JSON.parse(result.stdout);
};

const pick = (flag: Record<string, unknown>, fields = IMPORTED) => Object.fromEntries(fields.map((field) => [field, flag[field]]));

const file = (name: string, content: unknown) => {
  const target = path.join(scratch, name);
  writeFileSync(target, typeof content === 'string' ? content : JSON.stringify(content));
  return target;
};

async function restList(projectId: number) {
  const res = await app.request(`/api/projects/${projectId}/feature_flags/?limit=1000`, { key: world.owner.key });
  expect(res.status).toBe(200);
  return res.body as { count: number; results: Array<Record<string, unknown>> };
}

async function createFlag(projectId: number, body: Record<string, unknown>) {
  const res = await app.request(`/api/projects/${projectId}/feature_flags/`, { method: 'POST', key: world.owner.key, body });
  expect(res.status).toBe(201);
  return res.body;
}

beforeAll(async () => {
  cli = transpiledCli();
  scratch = mkdtempSync(path.join(tmpdir(), 'flags-import-'));
  app = await startTestApp();
  world = await app.factories.world();
}, 60_000);

afterAll(async () => {
  await app?.close();
  cli?.remove();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('--help', () => {
  it('lists every command, and each command explains itself', async () => {
    const all = await run(['--help']);
    expect([all.code, all.stderr]).toEqual([0, '']);
    for (const command of Object.keys(COMMAND_HELP)) expect(all.stdout).toContain(`  ${command} `);
    expect(all.stdout).toContain('flags:import');

    for (const command of Object.keys(COMMAND_HELP)) {
      for (const args of command === 'flags:import'
        ? [
            [command, '--help'],
            [command, '-h'],
            ['help', command],
          ]
        : [[command, '--help']]) {
        const own = await run(args);
        expect({ args, code: own.code, stderr: own.stderr }).toEqual({ args, code: 0, stderr: '' });
        expect(own.stdout.startsWith(`Usage: npm run --silent cli -- ${command} ${COMMAND_HELP[command].usage}\n\n`)).toBe(true);
      }
    }
    const importHelp = (await run(['flags:import', '--help'])).stdout;
    for (const words of ['created | updated | unchanged | skipped | error', 'usage_dashboard', 'nothing is written'])
      expect(importHelp).toContain(words);

    const unknown = await run(['help', 'flags:nothing']);
    expect(unknown).toEqual({ code: 1, stdout: '', stderr: 'error: Unknown command: flags:nothing (see --help)\n' });
  });

  it('answers a missing file or project with the usage, on standard error', async () => {
    const noFile = await run(['flags:import', '--project', String(world.project.id)]);
    expect(noFile.code).toBe(1);
    expect(noFile.stderr).toBe(`error: Usage: cli flags:import ${COMMAND_HELP['flags:import'].usage} (see flags:import --help)\n`);
    const noProject = await run(['flags:export']);
    expect(noProject).toEqual({ code: 1, stdout: '', stderr: 'error: --project <id> is required (a positive integer).\n' });
    const unknownProject = await run(['flags:export', '--project', '999999999']);
    const where = lookedIn(app.orm.config.get('clientUrl')!);
    expect(unknownProject).toEqual({ code: 1, stdout: '', stderr: `error: Project not found: 999999999${where}\n` });
    const stranger = await run(['flags:export', '--project', String(world.project.id), '--email', 'nobody@example.com']);
    expect(stranger.stderr).toBe(`error: nobody@example.com is not a member of project ${world.project.id}'s organization${where}\n`);
    const notJson = await run(['flags:import', '--project', String(world.project.id), file('not-json.txt', 'key,name\n')]);
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toMatch(/^error: .*not-json\.txt is not JSON: /);
  });
});

describe('export, then import into another project', () => {
  it('exports exactly the REST list, and the import reproduces every flag', async () => {
    const source = world.project.id;
    // performed_rollback is set: an import sends `active: true`, which resets it to false (the API's rule).
    await createFlag(source, {
      key: 'plain',
      performed_rollback: false,
      filters: { groups: [{ properties: [], rollout_percentage: 40 }] },
    });
    await createFlag(source, {
      key: 'multi',
      name: 'Two variants',
      active: false,
      tags: ['Growth', 'web'],
      ensure_experience_continuity: true,
      rollback_conditions: [{ threshold: 5 }],
      filters: {
        groups: [
          { properties: [{ key: 'plan', type: 'person', value: ['pro'], operator: 'exact' }], rollout_percentage: 100, variant: 'b' },
        ],
        multivariate: {
          variants: [
            { key: 'a', rollout_percentage: 30 },
            { key: 'b', rollout_percentage: 70 },
          ],
        },
        payloads: { a: '{"x":1}' },
      },
    });
    await createFlag(source, { key: 'gone', filters: { groups: [] } }).then((flag) =>
      app.request(`/api/projects/${source}/feature_flags/${flag.id}/`, { method: 'PATCH', key: world.owner.key, body: { deleted: true } }),
    );

    const exported = json(await run(['flags:export', '--project', String(source)]));
    const rest = await restList(source);
    expect(exported).toEqual({ count: 2, next: null, previous: null, results: rest.results, cohorts: [] });
    expect(exported.results.map((flag: { key: string }) => flag.key)).toEqual(['multi', 'plain']);

    const out = path.join(scratch, 'export.json');
    expect(json(await run(['flags:export', '--project', String(source), '--out', out]))).toEqual({ written: out, count: 2 });
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(exported);

    const target = await app.factories.project(world.organization, 'Target');
    const report = json(await run(['flags:import', '--project', String(target.id), out]));
    expect(report).toEqual({
      project_id: target.id,
      written: true,
      summary: { created: 2, updated: 0, unchanged: 0, skipped: 0, error: 0 },
      results: [
        { index: 0, key: 'multi', status: 'created', id: expect.any(Number) },
        { index: 1, key: 'plain', status: 'created', id: expect.any(Number) },
      ],
      cohorts: [],
    });
    const imported = await restList(target.id);
    expect(imported.results.map((flag) => pick(flag))).toEqual(exported.results.map((flag: Record<string, unknown>) => pick(flag)));
    expect(imported.results.map((flag) => flag.id)).toEqual(report.results.map((result: { id: number }) => result.id));
    imported.results.forEach((flag, index) => {
      expect(flag).toMatchObject({
        version: 1,
        created_by: expect.objectContaining({ id: world.owner.user.id }),
        analytics_dashboards: [],
      });
      // The target's own usage dashboard (if the service makes one), never the source's.
      expect(flag.usage_dashboard).not.toBe(exported.results[index].usage_dashboard ?? 'none');
    });

    // A second import changes nothing: every flag unchanged, no version bumped.
    const again = json(await run(['flags:import', '--project', String(target.id), out]));
    expect(again.summary).toEqual({ created: 0, updated: 0, unchanged: 2, skipped: 0, error: 0 });
    expect(again.results.map((result: { status: string; id: number }) => [result.status, result.id])).toEqual(
      report.results.map((result: { id: number }) => ['unchanged', result.id]),
    );
    expect(await restList(target.id)).toEqual(imported);

    // A changed file updates by key, in place.
    const changed = {
      ...exported,
      results: exported.results.map((flag: Record<string, unknown>) =>
        flag.key === 'plain' ? { ...flag, active: false, name: 'Now named' } : flag,
      ),
    };
    const update = json(await run(['flags:import', '--project', String(target.id), file('changed.json', changed)]));
    expect(update.results.map((result: { status: string }) => result.status)).toEqual(['unchanged', 'updated']);
    const plain = (await restList(target.id)).results.find((flag) => flag.key === 'plain')!;
    expect(plain).toMatchObject({ id: report.results[1].id, active: false, name: 'Now named', version: 2 });
  });
});

describe("PostHog's own export", () => {
  it('imports the list answer and its results array, ignoring what belongs to the source project', async () => {
    const target = await app.factories.project(world.organization, 'From PostHog');
    const posthog = JSON.parse(readFileSync(POSTHOG_EXPORT, 'utf8'));
    const report = json(await run(['flags:import', '--project', String(target.id), POSTHOG_EXPORT]));
    expect(report.summary).toEqual({ created: 3, updated: 0, unchanged: 0, skipped: 0, error: 0 });
    expect(report.results.map((result: { key: string }) => result.key)).toEqual(['new-checkout', 'pricing-test', 'dark_mode']);

    const imported = await restList(target.id);
    expect(imported.results.map((flag) => flag.key)).toEqual(['new-checkout', 'pricing-test', 'dark_mode']);
    imported.results.forEach((flag, index) => {
      const original = posthog.results[index];
      expect(pick(flag)).toEqual(pick(original));
      expect(flag.id).not.toBe(original.id);
      expect(flag).toMatchObject({
        created_by: expect.objectContaining({ email: world.owner.user.email }),
        analytics_dashboards: [],
        experiment_set: [],
        version: 1,
        has_enriched_analytics: false,
      });
      expect(flag.created_at).not.toBe(original.created_at);
      expect(flag.usage_dashboard).not.toBe(original.usage_dashboard);
    });

    const arrayOnly = json(await run(['flags:import', '--project', String(target.id), file('results.json', posthog.results)]));
    expect(arrayOnly.summary).toEqual({ created: 0, updated: 0, unchanged: 3, skipped: 0, error: 0 });
  });
});

/**
 * util-linux `script` runs a command on a pseudo-terminal: the one way to give the CLI a TTY for
 * standard error. Without it the progress test fails and says what is missing (a skipped test is
 * easy to miss); TEST_WITHOUT_SCRIPT=1 turns that into a skip on a machine that cannot have it.
 */
const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const skipWithoutScript = !hasScript && process.env.TEST_WITHOUT_SCRIPT === '1';
const SCRIPT_MISSING =
  "util-linux's `script` command is missing, and this test needs it to run the CLI on a terminal. " +
  'Install it (Debian and Ubuntu: `apt-get install bsdutils`; .ci/run does), or set TEST_WITHOUT_SCRIPT=1 to skip this test.';

describe('progress', () => {
  (skipWithoutScript ? it.skip : it)('draws a progress bar on a terminal, and nothing on a pipe', async () => {
    if (!hasScript) throw new Error(SCRIPT_MISSING);
    const target = await app.factories.project(world.organization, 'Progress');
    const command = ['node', path.join(cli.dir, 'src/cli/main.js'), 'flags:import', '--project', String(target.id), POSTHOG_EXPORT].join(
      ' ',
    );
    const onTerminal = await new Promise<string>((resolve, reject) =>
      execFile(
        'script',
        ['-qec', command, '/dev/null'],
        { env: { ...process.env, DATABASE_URL: app.orm.config.get('clientUrl') } },
        (error, stdout) => (error ? reject(error) : resolve(stdout)),
      ),
    );
    expect(onTerminal).toContain('flags:import');
    expect(onTerminal).toContain('3/3');
    expect(onTerminal).toContain('"summary":{"created":3');
    // On a pipe standard error stays empty.
    const piped = await cli.run(app.orm.config.get('clientUrl'), ['flags:import', '--project', String(target.id), POSTHOG_EXPORT]);
    expect([piped.code, piped.stderr]).toEqual([0, '']);
  });
});

describe('cohorts', () => {
  const person = (key: string, value: string) => ({ type: 'person', key, value, operator: 'exact' });

  async function createCohort(projectId: number, body: Record<string, unknown>) {
    const res = await app.request(`/api/projects/${projectId}/cohorts/`, { method: 'POST', key: world.owner.key, body });
    expect(res.status).toBe(201);
    return res.body;
  }

  it('exports the cohorts the flags use, nested ones first, and the import recreates and renames them', async () => {
    const source = await app.factories.project(world.organization, 'Cohort source');
    const payers = await createCohort(source.id, {
      name: 'Payers',
      filters: { properties: { type: 'AND', values: [person('plan', 'pro')] } },
    });
    const europe = await createCohort(source.id, {
      name: 'European payers',
      filters: { properties: { type: 'AND', values: [person('region', 'eu'), { type: 'cohort', key: 'id', value: payers.id }] } },
    });
    await createCohort(source.id, { name: 'Unused', filters: { properties: { type: 'AND', values: [person('plan', 'free')] } } });
    await createFlag(source.id, {
      key: 'eu-pricing',
      filters: { groups: [{ properties: [{ type: 'cohort', key: 'id', value: europe.id }], rollout_percentage: 100 }] },
    });

    const exported = json(await run(['flags:export', '--project', String(source.id)]));
    expect(exported.cohorts.map((cohort: { name: string }) => cohort.name)).toEqual(['Payers', 'European payers']);
    expect(exported.cohorts[1]).toEqual(
      (await app.request(`/api/projects/${source.id}/cohorts/${europe.id}/`, { key: world.owner.key })).body,
    );

    const target = await app.factories.project(world.organization, 'Cohort target');
    const out = file('with-cohorts.json', exported);
    const report = json(await run(['flags:import', '--project', String(target.id), out]));
    expect(report.cohorts).toEqual([
      { index: 0, source_id: payers.id, name: 'Payers', status: 'created', id: expect.any(Number) },
      { index: 1, source_id: europe.id, name: 'European payers', status: 'created', id: expect.any(Number) },
    ]);
    const [newPayers, newEurope] = report.cohorts.map((cohort: { id: number }) => cohort.id);
    const imported = await app.request(`/api/projects/${target.id}/cohorts/${newEurope}/`, { key: world.owner.key });
    expect(imported.body.filters.properties.values[1]).toEqual({ type: 'cohort', key: 'id', value: newPayers });
    const flag = (await restList(target.id)).results[0] as { filters: { groups: Array<{ properties: unknown }> } };
    expect(flag.filters.groups[0].properties).toEqual([{ type: 'cohort', key: 'id', value: newEurope }]);

    const again = json(await run(['flags:import', '--project', String(target.id), out]));
    expect(again.cohorts.map((cohort: { status: string }) => cohort.status)).toEqual(['unchanged', 'unchanged']);
    expect(again.summary).toMatchObject({ unchanged: 1, error: 0 });
  });

  it("refuses a flag naming a cohort the file does not carry (a PostHog export's cohort ids are its own)", async () => {
    const target = await app.factories.project(world.organization, 'Foreign cohorts');
    const foreign = [
      { key: 'cohort-flag', filters: { groups: [{ properties: [{ type: 'cohort', key: 'id', value: 98765 }], rollout_percentage: 100 }] } },
    ];
    const result = await run(['flags:import', '--project', String(target.id), file('foreign-cohort.json', foreign)]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).results[0].error).toEqual({
      type: 'validation_error',
      code: 'cohort_does_not_exist',
      detail: "Cohort with id 98765 is not among the file's cohorts.",
      attr: 'filters',
    });
  });

  it('regression: a refused import listed ids it never committed; what would have been written now says so', async () => {
    const target = await app.factories.project(world.organization, 'Refused with cohorts');
    const existing = await createCohort(target.id, {
      name: 'Existing',
      filters: { properties: { type: 'AND', values: [person('plan', 'pro')] } },
    });
    const cohortsBefore = (await app.request(`/api/projects/${target.id}/cohorts/`, { key: world.owner.key })).body;
    const exported = {
      results: [
        { key: 'uses-new', filters: { groups: [{ properties: [{ type: 'cohort', key: 'id', value: 2 }], rollout_percentage: 100 }] } },
        { key: 'bad key!', filters: { groups: [] } },
      ],
      cohorts: [
        { id: 1, name: 'Existing', filters: { properties: { type: 'AND', values: [person('plan', 'enterprise')] } } },
        { id: 2, name: 'New', filters: { properties: { type: 'AND', values: [person('region', 'eu')] } } },
      ],
    };
    const result = await run(['flags:import', '--project', String(target.id), file('refused-with-cohorts.json', exported)]);
    expect([result.code, result.stderr]).toEqual([1, 'error: 1 of 2 flags were refused; nothing was written.\n']);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ written: false, summary: { would_create: 1, would_update: 0, unchanged: 0, skipped: 0, error: 1 } });
    expect(report.results[0]).toEqual({ index: 0, key: 'uses-new', status: 'would_create' });
    expect(report.cohorts).toEqual([
      // The target's own cohort keeps its (committed) id; the one that would have been made has none.
      { index: 0, source_id: 1, name: 'Existing', status: 'would_update', id: existing.id },
      { index: 1, source_id: 2, name: 'New', status: 'would_create' },
    ]);
    expect((await app.request(`/api/projects/${target.id}/cohorts/`, { key: world.owner.key })).body).toEqual(cohortsBefore);
    expect((await restList(target.id)).count).toBe(0);
  });
});

describe('refusals', () => {
  it('reports each bad flag with the API message and writes nothing at all', async () => {
    const target = await app.factories.project(world.organization, 'Refusals');
    await createFlag(target.id, { key: 'kept', name: 'Before', filters: { groups: [{ properties: [], rollout_percentage: 10 }] } });
    const before = await restList(target.id);

    const badVariants = {
      key: 'bad-variants',
      filters: {
        groups: [{ properties: [], rollout_percentage: 100 }],
        multivariate: {
          variants: [
            { key: 'a', rollout_percentage: 50 },
            { key: 'b', rollout_percentage: 40 },
          ],
        },
      },
    };
    const api = await app.request(`/api/projects/${target.id}/feature_flags/`, { method: 'POST', key: world.owner.key, body: badVariants });
    expect(api.status).toBe(400);

    const entries = [
      { key: 'fine', filters: { groups: [{ properties: [], rollout_percentage: 50 }] } },
      { key: 'kept', name: 'After', filters: { groups: [{ properties: [], rollout_percentage: 10 }] } },
      badVariants,
      { key: 'bad key!', filters: { groups: [] } },
      { name: 'no key', filters: { groups: [] } },
      'not a flag',
      { key: 'fine', filters: { groups: [] } },
      { key: 'old', deleted: true, filters: { groups: [] } },
    ];
    const result = await run(['flags:import', '--project', String(target.id), file('bad.json', { results: entries })]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('error: 5 of 8 flags were refused; nothing was written.\n');
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({
      project_id: target.id,
      written: false,
      // Nothing was written: what would have been says so.
      summary: { would_create: 1, would_update: 1, unchanged: 0, skipped: 1, error: 5 },
    });
    expect(report.cohorts).toEqual([]);
    expect(report.results).toEqual([
      {
        index: 0,
        key: 'fine',
        status: 'error',
        error: { type: 'validation_error', code: 'unique', detail: 'The file holds another flag with this key.', attr: 'key' },
      },
      { index: 1, key: 'kept', status: 'would_update', id: before.results[0].id },
      { index: 2, key: 'bad-variants', status: 'error', error: api.body },
      { index: 3, key: 'bad key!', status: 'error', error: expect.objectContaining({ type: 'validation_error', attr: 'key' }) },
      {
        index: 4,
        key: null,
        status: 'error',
        error: { type: 'validation_error', code: 'required', detail: 'This field is required.', attr: 'key' },
      },
      {
        index: 5,
        key: null,
        status: 'error',
        error: { type: 'validation_error', code: 'invalid_input', detail: 'Each flag must be a JSON object.', attr: null },
      },
      // Rolled back with the rest: no id for a flag that was never committed ('kept' keeps its own).
      { index: 6, key: 'fine', status: 'would_create' },
      { index: 7, key: 'old', status: 'skipped', reason: 'The flag is deleted in the file.' },
    ]);
    // The same refusal as the API's create answers (its message, code and attr).
    const badKey = await app.request(`/api/projects/${target.id}/feature_flags/`, {
      method: 'POST',
      key: world.owner.key,
      body: entries[3],
    });
    expect(report.results[3].error).toEqual(badKey.body);

    expect(await restList(target.id)).toEqual(before);
  });

  it("keeps the API's edit rights: a member who may not edit a flag cannot update it", async () => {
    const target = await app.factories.project(world.organization, 'Rights');
    await createFlag(target.id, { key: 'owned', filters: { groups: [{ properties: [], rollout_percentage: 10 }] } });
    const member = await app.factories.member(world.organization);
    const access = await app.request(`/api/organizations/${world.organization.id}/resource_access/`, {
      method: 'POST',
      key: world.owner.key,
      body: { resource: 'feature flags', access_level: 21 },
    });
    expect(access.status).toBe(201);
    const result = await run([
      'flags:import',
      '--project',
      String(target.id),
      '--email',
      member.user.email,
      file('rights.json', [{ key: 'owned', active: false }]),
    ]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).results[0]).toMatchObject({
      key: 'owned',
      status: 'error',
      error: { type: 'authentication_error', code: 'permission_denied' },
    });
  });
});
