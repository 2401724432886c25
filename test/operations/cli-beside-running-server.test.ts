// @slow: builds, starts the built service (on a fresh embedded database without DATABASE_URL) and runs the built CLI beside it
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { ensureBuilt } from '../helpers/build';
import { createTestDatabase, type TestDatabase } from '../helpers/databases';
import { fetchChecked } from '../helpers/openapi-contract';
import { freePort } from '../helpers/service-process';

/**
 * What an operator does: `npm start` (the built service), then the CLI's `flags:import` in another
 * terminal, over the same database: on the embedded one (DATA_DIR, no DATABASE_URL) the CLI reaches
 * the server's database through the server's socket, and the server hears no notification of it.
 * The server's SDK definitions, cached before the import, show the imported flag within about a
 * second all the same (docs/operations.md, "The SDK definitions cache and who changes it"), and so
 * does a change made with raw SQL from another connection. On PostgreSQL the same, with the
 * notification arriving first.
 */
jest.setTimeout(300_000);

const root = path.resolve(__dirname, '../..');
const run = promisify(execFile);
const DEADLINE_MS = 4000;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let scratch: string;
let database: TestDatabase | null = null;
let server: ChildProcess | null = null;
let stderr = '';
let baseUrl: string;
let bootstrap: { project_id: number; personal_api_key: string };

/** The environment both processes get: DATA_DIR, and DATABASE_URL only when the tests run on a server. */
function env(): NodeJS.ProcessEnv {
  const { DATABASE_URL: _ignored, ...rest } = process.env;
  return {
    ...rest,
    ...(database ? { DATABASE_URL: database.url } : {}),
    DATA_DIR: path.join(scratch, 'data'),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_ENABLED: 'false',
    REDIS_URL: '',
  };
}

const cli = async (args: string[]) => JSON.parse((await run('node', ['dist/src/cli/main.js', ...args], { cwd: root, env: env() })).stdout);

const local = () => `${baseUrl}/api/projects/${bootstrap.project_id}/feature_flags/local_evaluation`;
async function flagNames(): Promise<Record<string, string>> {
  const res = await fetchChecked<{ flags: Array<{ key: string; name: string }> }>(local(), {
    headers: { authorization: `Bearer ${bootstrap.personal_api_key}` },
  });
  expect(res.status).toBe(200);
  return Object.fromEntries(res.body.flags.map((flag) => [flag.key, flag.name]));
}

/** Polls the served definitions until `holds`; false past the deadline. */
async function eventually(holds: (names: Record<string, string>) => boolean): Promise<boolean> {
  const began = Date.now();
  while (Date.now() - began < DEADLINE_MS) {
    if (holds(await flagNames())) return true;
    await wait(50);
  }
  return false;
}

/** The server's own database URL: DATABASE_URL, or the embedded server's socket (what the CLI finds too). */
function databaseUrl(): string {
  if (database) return database.url;
  return JSON.parse(readFileSync(path.join(scratch, 'data', 'socket.json'), 'utf8')).url;
}

beforeAll(async () => {
  await ensureBuilt();
  scratch = mkdtempSync(path.join(tmpdir(), 'flags-beside-'));
  if (process.env.DATABASE_URL) database = await createTestDatabase();
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  server = spawn('node', ['dist/src/main.js'], { cwd: root, env: { ...env(), PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  server.stderr!.on('data', (chunk) => (stderr += chunk));
  for (let up = false; !up; await wait(100)) {
    if (server.exitCode !== null) throw new Error(`the server exited: ${stderr}`);
    up = await fetchChecked(`${baseUrl}/_health`).then(
      (res) => res.status === 200,
      () => false,
    );
  }
  bootstrap = await cli(['bootstrap', '--email', 'beside@example.com']);
  const created = await fetchChecked(`${baseUrl}/api/projects/${bootstrap.project_id}/feature_flags/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bootstrap.personal_api_key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ key: 'made-by-rest', name: 'REST' }),
  });
  expect(created.status).toBe(201);
});

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await database?.drop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe(`the built server (${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded database'}) and the CLI beside it`, () => {
  it('serves flags the CLI imported, though its definitions were cached before', async () => {
    expect(await flagNames()).toEqual({ 'made-by-rest': 'REST' });
    const file = path.join(scratch, 'import.json');
    writeFileSync(file, JSON.stringify([{ key: 'imported', name: 'From the CLI' }]));
    const report = await cli(['flags:import', '--project', String(bootstrap.project_id), file]);
    expect(report.results).toEqual([expect.objectContaining({ key: 'imported', status: 'created' })]);
    expect(await eventually((names) => names.imported === 'From the CLI')).toBe(true);
  });

  it('serves a change made with raw SQL from another connection', async () => {
    expect((await flagNames())['made-by-rest']).toBe('REST');
    const other = new Client({ connectionString: databaseUrl() });
    await other.connect();
    try {
      await other.query(`update feature_flag set name = 'by hand' where project_id = $1 and key = 'made-by-rest'`, [bootstrap.project_id]);
    } finally {
      await other.end();
    }
    expect(await eventually((names) => names['made-by-rest'] === 'by hand')).toBe(true);
  });

  it('shuts down cleanly on SIGTERM, its timers and connections closed', async () => {
    const exited = new Promise<number | null>((resolve) => server!.once('exit', resolve));
    server!.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).not.toMatch(/error/i);
  });
});
