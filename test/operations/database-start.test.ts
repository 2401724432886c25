import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { adminUrl, withDatabase } from '../helpers/databases';
import { inProcessCli, transpiledCli } from '../helpers/cli';
import { Client } from 'pg';
import { freePort } from '../helpers/service-process';
import { execute } from '../helpers/sql-admin';

/**
 * A DATABASE_URL naming a database that does not exist (docs/operations.md, "The database"): the
 * service, started as its own process, refuses to start and creates nothing, unless
 * `--create-database` or CREATE_DATABASE=true asks for it; the CLI refuses the same way. Only a
 * PostgreSQL server has databases to name: without DATABASE_URL these cases show as skipped.
 */
// @slow: starts the service and the CLI as processes over fresh databases.
jest.setTimeout(90_000);

const template = process.env.TEST_TEMPLATE_URL;
const describeOnServer = template ? describe : describe.skip;
const root = path.resolve(__dirname, '../..');

async function rows(url: string, sql: string, values: unknown[] = []): Promise<unknown[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows;
  } finally {
    await client.end();
  }
}
const exists = async (name: string) =>
  (await rows(adminUrl(template!), 'select 1 from pg_database where datname = $1', [name])).length === 1;
const drop = (name: string) => execute(adminUrl(template!), `drop database if exists "${name}" with (force)`);

const children: ChildProcess[] = [];
const names: string[] = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  if (template) for (const name of names) await drop(name);
});

/** A database name nobody has made: a typo of a real one. */
function missingDatabase(): { name: string; url: string } {
  const name = `flags_typo_${randomBytes(5).toString('hex')}`;
  names.push(name);
  return { name, url: withDatabase(template!, name) };
}

/** src/main.ts as its own process; resolves when it exits, or when it answers /_readyz (then it is stopped). */
async function start(env: NodeJS.ProcessEnv, args: string[] = []): Promise<{ code: number | null; stderr: string; ready: boolean }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(__dirname, '../helpers/ts-process.js'), path.join(root, 'src/main.ts'), ...args], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', REDIS_URL: '', CREATE_DATABASE: '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  for (;;) {
    const outcome = await Promise.race([
      exited.then((code) => ({ code })),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 200)),
    ]);
    if (outcome) return { code: outcome.code, stderr, ready: false };
    const ready = await fetch(`http://127.0.0.1:${port}/_readyz`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ready) {
      child.kill('SIGTERM');
      return { code: await exited, stderr, ready: true };
    }
  }
}

describeOnServer('a DATABASE_URL naming a missing database', () => {
  it('is refused at start with the name and how to create it, and nothing is created', async () => {
    const { name, url } = missingDatabase();
    const { host, port } = new URL(url);
    const result = await start({ DATABASE_URL: url });
    expect(result).toMatchObject({ code: 1, ready: false });
    expect(result.stderr).toBe(
      [
        `Database "${name}" does not exist on the PostgreSQL server at ${host.split(':')[0]}:${port || 5432} (named by DATABASE_URL); nothing was created.`,
        `Check the name for a typo, or create it: createdb -h ${host.split(':')[0]} -p ${port || 5432} -U postgres '${name}'`,
        'or let the service create it: start it once with `npm start -- --create-database`, or set CREATE_DATABASE=true.',
        '',
      ].join('\n'),
    );
    expect(await exists(name)).toBe(false);
  });

  it('is created and migrated with --create-database', async () => {
    const { name, url } = missingDatabase();
    expect(await start({ DATABASE_URL: url }, ['--create-database'])).toMatchObject({ ready: true, code: 0 });
    expect(await exists(name)).toBe(true);
    expect((await rows(url, 'select name from mikro_orm_migrations')).length).toBeGreaterThan(0);
  });

  it('refuses a CREATE_DATABASE that is neither true nor false', async () => {
    const { name, url } = missingDatabase();
    const result = await inProcessCli().run(url, ['bootstrap', '--email', 'typo@example.com'], { env: { CREATE_DATABASE: 'maybe' } });
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'error: CREATE_DATABASE must be true or false, got "maybe"\n' });
    expect(await exists(name)).toBe(false);
  });

  it('is refused by the CLI too, which creates it only with CREATE_DATABASE=true', async () => {
    const cli = transpiledCli();
    try {
      const { name, url } = missingDatabase();
      const refused = await cli.run(url, ['bootstrap', '--email', 'typo@example.com']);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(new RegExp(`^error: Database "${name}" does not exist on the PostgreSQL server at `));
      expect(await exists(name)).toBe(false);

      // The setting the server reads too (CREATE_DATABASE=true); once made, a plain run opens it.
      const made = await cli.run(url, ['bootstrap', '--email', 'typo@example.com'], { env: { CREATE_DATABASE: 'true' } });
      expect(made.stderr).toBe('');
      expect(JSON.parse(made.stdout)).toMatchObject({ project_id: 1, user: { email: 'typo@example.com' } });
      expect(await exists(name)).toBe(true);
      const again = await cli.run(url, ['bootstrap', '--email', 'again@example.com']);
      expect(JSON.parse(again.stdout)).toMatchObject({ project_id: 2 });
    } finally {
      cli.remove();
    }
  });
});
