import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '../helpers/databases';
import { lookedIn, transpiledCli } from '../helpers/cli';

/**
 * The CLI names the database it looked in when a lookup finds nothing (README "CLI"): run without
 * DATABASE_URL beside a server on PostgreSQL, it opens the embedded database in ./.data, and
 * "User not found" alone looked like a missing user rather than the wrong database.
 */
// @slow: the CLI as its own process, once on a fresh embedded database (created in a child process).
jest.setTimeout(90_000);

let cli: ReturnType<typeof transpiledCli>;
let database: TestDatabase;
let cwd: string;

beforeAll(async () => {
  cli = transpiledCli();
  database = await createTestDatabase();
  cwd = mkdtempSync(path.join(tmpdir(), 'flags-cli-cwd-'));
});
afterAll(async () => {
  cli?.remove();
  await database?.drop();
  if (cwd) rmSync(cwd, { recursive: true, force: true });
});

it('without DATABASE_URL, says it looked in the embedded database in ./.data and how to use the server instead', async () => {
  const run = await cli.run('', ['key:list', '--email', 'nobody@example.com'], {
    cwd,
    env: { DATABASE_URL: undefined, DATA_DIR: undefined },
  });
  expect(run).toEqual({
    code: 1,
    stdout: '',
    stderr:
      `error: User not found: nobody@example.com (looked in the embedded database in ${path.join(cwd, '.data')}, as DATABASE_URL ` +
      "is not set; set DATABASE_URL to use the server's PostgreSQL, or DATA_DIR for another directory).\n",
  });
});

it('with DATABASE_URL, names that database (never its password)', async () => {
  const url = new URL(database.url);
  url.password = 'secret-password';
  const run = await cli.run(url.toString(), ['key:revoke', '--id', '424242']);
  expect(run).toEqual({ code: 1, stdout: '', stderr: `error: Personal API key not found${lookedIn(database.url)}\n` });
  expect(run.stderr).not.toContain('secret-password');
});
