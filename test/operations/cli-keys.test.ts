import { CREDENTIAL_TTL_MS } from '../../src/app-caches';
import { startTestApp, type TestApp } from '../helpers/test-app';
import type { World } from '../helpers/factories';
import { COMMAND_HELP } from '../../src/cli/commands';
import { inProcessCli, lookedIn, transpiledCli, type CliRun } from '../helpers/cli';

/**
 * `key:list` and `key:revoke` as an operator runs them, beside a running service over the same
 * database: the CLI's entry in this process, and as its own process for `--help`.
 */
jest.setTimeout(60_000);

let cliProcess: ReturnType<typeof transpiledCli>;
let app: TestApp;
let world: World;
type Run = CliRun;

/** The CLI's entry in this process (src/cli/run.ts); `--help` below also runs it as its own process. */
const cli = (args: string[], stdin?: string): Promise<Run> => inProcessCli().run(app.orm.config.get('clientUrl')!, args, { stdin });
const cliAsProcess = (args: string[]): Promise<Run> => cliProcess.run(app.orm.config.get('clientUrl')!, args);

const json = (run: Run) => {
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout.endsWith('\n') && run.stdout.trim().split('\n').length === 1).toBe(true);
  return JSON.parse(run.stdout);
};

beforeAll(async () => {
  cliProcess = transpiledCli();
  app = await startTestApp();
  world = await app.factories.world();
}, 60_000);

afterAll(async () => {
  await app?.close();
  cliProcess?.remove();
});

describe('key:create', () => {
  it('refuses, as the API does, limits to a project or organization the user is not a member of, and stores nothing', async () => {
    const email = world.owner.user.email;
    const other = await app.factories.world();
    const before = json(await cli(['key:list', '--email', email])).keys.length;
    const project = await cli(['key:create', '--email', email, '--projects', `${world.project.id},${other.project.id}`]);
    expect([project.code, project.stderr]).toEqual([
      1,
      expect.stringContaining('You must be a member of all projects that you are scoping the key to.'),
    ]);
    const organization = await cli(['key:create', '--email', email, '--organizations', other.organization.id]);
    expect([organization.code, organization.stderr]).toEqual([1, expect.stringContaining('You must be a member of all organizations')]);
    expect(json(await cli(['key:list', '--email', email])).keys).toHaveLength(before);
    const repeated = json(await cli(['key:create', '--email', email, '--projects', `${world.project.id},${world.project.id}`]));
    const [made] = json(await cli(['key:list', '--email', email])).keys;
    expect([made.id, made.scoped_teams]).toEqual([repeated.id, [world.project.id]]);
    expect(json(await cli(['key:revoke', '--id', String(repeated.id)]))).toBeTruthy();
  });
});

describe('key:list', () => {
  it("prints the user's keys newest first, masked, with their limits, never the key or its digest", async () => {
    const email = world.owner.user.email;
    const made = json(
      await cli(['key:create', '--email', email, '--scopes', 'feature_flag:read', '--projects', String(world.project.id), '--label', 'ci']),
    );
    const listed = json(await cli(['key:list', '--email', email.toUpperCase()]));
    expect(listed.user).toEqual({ id: world.owner.user.id, uuid: world.owner.user.uuid, distinct_id: world.owner.user.distinctId, email });
    expect(listed.keys).toHaveLength(2);
    expect(listed.keys[0]).toEqual({
      id: made.id,
      label: 'ci',
      mask_value: `phx_...${made.personal_api_key.slice(-4)}`,
      scopes: ['feature_flag:read'],
      scoped_teams: [world.project.id],
      scoped_organizations: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      last_used_at: null,
    });
    expect(listed.keys[1]).toMatchObject({ mask_value: `phx_...${world.owner.key.slice(-4)}`, scopes: ['*'] });

    // The same keys, fields and values as the API's list (which adds `value: null` and `user_id`).
    const rest = await app.request('/api/personal_api_keys/', { key: world.owner.key });
    expect(rest.body.map(({ value: _value, user_id: _user, ...key }: Record<string, unknown>) => key)).toEqual(
      listed.keys.map((key: Record<string, unknown>) =>
        key.id === rest.body[1].id ? { ...key, last_used_at: rest.body[1].last_used_at } : key,
      ),
    );
    for (const secret of [made.personal_api_key, world.owner.key, 'sha256$']) expect(JSON.stringify(listed)).not.toContain(secret);
  });

  it('refuses an unknown e-mail on standard error with exit code 1', async () => {
    const run = await cli(['key:list', '--email', 'nobody@example.com']);
    const where = lookedIn(app.orm.config.get('clientUrl')!);
    expect(run).toEqual({ code: 1, stdout: '', stderr: `error: User not found: nobody@example.com${where}\n` });
  });
});

describe('user:create', () => {
  it('refuses a malformed or taken e-mail on standard error with exit code 1, writing nothing', async () => {
    const create = (email: string) => cli(['user:create', '--organization', world.organization.id, '--email', email]);
    expect(await create('not-an-address')).toEqual({ code: 1, stdout: '', stderr: 'error: Not a valid e-mail address: not-an-address\n' });
    const taken = world.owner.user.email;
    expect(await create(` ${taken.toUpperCase()} `)).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: A user with e-mail ${taken} already exists; key:create --email ${taken} makes them another key.\n`,
    });
    const [{ count }] = await app.factories.sql('select count(*) from app_user where email = ?', [taken]);
    expect(Number(count)).toBe(1);
  });
});

describe('bootstrap', () => {
  it('run again for a taken e-mail, says so and how to get another key, creating nothing', async () => {
    const taken = world.owner.user.email;
    const [{ count: before }] = await app.factories.sql('select count(*) from organization');
    expect(await cli(['bootstrap', '--email', taken])).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: A user with e-mail ${taken} already exists; key:create --email ${taken} makes them another key.\n`,
    });
    const [{ count: after }] = await app.factories.sql('select count(*) from organization');
    expect(Number(after)).toBe(Number(before));
  });
});

describe('key:revoke', () => {
  it('revokes by the key itself (argument or standard input) or by id; the service refuses it within CREDENTIAL_TTL_MS', async () => {
    const member = await app.factories.member(world.organization);
    const flags = `/api/projects/${world.project.id}/feature_flags/`;
    const keys = await Promise.all([0, 1].map(() => app.factories.key(member.user)));
    const byId = json(await cli(['key:create', '--email', member.user.email]));
    for (const key of [member.key, ...keys, byId.personal_api_key]) expect((await app.request(flags, { key })).status).toBe(200);

    const first = json(await cli(['key:revoke', '--key', keys[0]]));
    expect(first).toEqual({
      revoked: expect.objectContaining({
        mask_value: `phx_...${keys[0].slice(-4)}`,
        user: expect.objectContaining({ email: member.user.email }),
      }),
    });
    const second = json(await cli(['key:revoke', '--key', '-'], `${keys[1]}\n`));
    expect(second.revoked.mask_value).toBe(`phx_...${keys[1].slice(-4)}`);
    const third = json(await cli(['key:revoke', '--id', String(byId.id)]));
    expect(third.revoked.id).toBe(byId.id);
    for (const run of [first, second, third]) expect(JSON.stringify(run)).not.toMatch(/phx_[0-9A-Za-z]{40}|sha256\$/);

    app.clock.advance(CREDENTIAL_TTL_MS + 1);
    for (const key of [...keys, byId.personal_api_key]) {
      const res = await app.request(flags, { key });
      expect([res.status, res.body.code]).toEqual([401, 'authentication_failed']);
    }
    expect((await app.request(flags, { key: member.key })).status).toBe(200);
    expect(json(await cli(['key:list', '--email', member.user.email])).keys).toHaveLength(1);
  });

  it('refuses unknown keys and ambiguous or missing options', async () => {
    const where = lookedIn(app.orm.config.get('clientUrl')!);
    for (const [args, message] of [
      [['key:revoke', '--key', 'phx_unknown'], `error: Personal API key not found${where}\n`],
      [['key:revoke', '--id', '999999999'], `error: Personal API key not found${where}\n`],
      [['key:revoke', '--id', 'abc'], 'error: --id must be a positive integer.\n'],
      [['key:revoke'], 'error: Give exactly one of --key <phx_…> and --id <n>.\n'],
      [['key:revoke', '--key', world.owner.key, '--id', '1'], 'error: Give exactly one of --key <phx_…> and --id <n>.\n'],
    ] as Array<[string[], string]>) {
      const run = await cli(args);
      expect([args, run]).toEqual([args, { code: 1, stdout: '', stderr: message }]);
    }
    // Errors never echo a key.
    const unknown = await cli(['key:revoke', '--key', 'phx_0123456789012345678901234567890123456789abc']);
    expect(unknown.stderr).not.toContain('phx_0123');
  });
});

describe('--help', () => {
  it('prints usage naming every command, and exits 0; an unknown command exits 1 (as a process)', async () => {
    const run = await cliAsProcess(['--help']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    for (const command of ['bootstrap', 'user:create', 'key:create', 'key:list', 'key:revoke', 'project:create'])
      expect(run.stdout).toContain(command);
    // Regression: the list printed the first line of each description, cutting flags:export's and
    // flags:import's mid-sentence. Each command now gets one whole sentence under its usage.
    const lines = run.stdout.split('\n');
    for (const [command, help] of Object.entries(COMMAND_HELP)) {
      const at = lines.findIndex((line) => line.startsWith(`  ${command.padEnd(15)}${help.usage}`));
      expect([command, lines[at + 1]]).toEqual([command, `${' '.repeat(17)}${help.summary}`]);
      expect([command, /^[A-Z].*\.$/.test(help.summary), help.summary.length <= 100]).toEqual([command, true, true]);
    }
    // A command's own help (test/operations/cli-import-export.test.ts checks every command's).
    const own = await cli(['key:revoke', '-h']);
    expect([own.code, own.stderr]).toEqual([0, '']);
    expect(own.stdout).toMatch(/^Usage: npm run --silent cli -- key:revoke --key/);
    const unknown = await cliAsProcess(['nonsense']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('see --help');
  });
});
