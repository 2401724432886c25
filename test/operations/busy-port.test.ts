import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { transpiledCli } from '../helpers/cli';

/**
 * A busy port (docs/operations.md#the-port): `npm start` names the port and how to choose another,
 * exits 1, and does so before it creates the data directory or opens any database; so does a
 * setting it cannot read (README "Configuration"). The service runs
 * as its own process, as `npm start` runs it; the port is held by a plain TCP server of the test's.
 */
jest.setTimeout(60_000);

let cli: ReturnType<typeof transpiledCli>;
let holder: Server;
let port: number;
let scratch: string;

beforeAll(async () => {
  cli = transpiledCli();
  scratch = mkdtempSync(path.join(tmpdir(), 'flags-busy-port-'));
  holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  port = (holder.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((resolve) => holder?.close(resolve));
  rmSync(scratch, { recursive: true, force: true });
  cli?.remove();
});

function start(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { DATABASE_URL: _db, REDIS_URL: _redis, WEB_CONCURRENCY: _workers, ...rest } = process.env;
  const child = spawn(process.execPath, [path.join(cli.dir, 'src/main.js')], {
    cwd: scratch,
    env: { ...rest, HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('npm start on a busy port', () => {
  it('says which port is busy and how to choose another, exits 1, and never creates the data directory', async () => {
    const dataDir = path.join(scratch, 'data');
    const res = await start({ DATA_DIR: dataDir });
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(
      `Port ${port} on 127.0.0.1 is already in use (another flagship, or another program). ` +
        `Stop that program, or choose another port, e.g. PORT=${port + 1} npm start\n`,
    );
    expect(res.stdout).toBe('');
    expect(existsSync(dataDir)).toBe(false);
  });

  it('uses ./.data by default: still not created when the port is busy', async () => {
    const res = await start({});
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`);
    expect(existsSync(path.join(scratch, '.data'))).toBe(false);
  });

  it('refuses before connecting to DATABASE_URL, with workers asked for too', async () => {
    // Nothing answers on port 1: had the service tried the database first, it would say so instead.
    const res = await start({ DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/nowhere', WEB_CONCURRENCY: '2' });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`);
    expect(res.stderr).not.toMatch(/ECONNREFUSED|\n\s+at /);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be a whole number from 0 to 65535, got "abc"'],
    [{ PORT: '70000' }, 'PORT must be a whole number from 0 to 65535, got "70000"'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"'],
    [{ TRUST_PROXY: 'sometimes' }, 'TRUST_PROXY must be true or false, got "sometimes"'],
    [{ STATEMENT_TIMEOUT_MS: 'soon' }, 'STATEMENT_TIMEOUT_MS must be a whole number of at least 0, got "soon"'],
  ])('refuses %j in one sentence, no stack, before touching the data directory', async (env, sentence) => {
    const dataDir = path.join(scratch, 'data');
    const res = await start({ DATA_DIR: dataDir, ...env });
    expect(res).toEqual({ code: 1, stdout: '', stderr: `${sentence}\n` });
    expect(existsSync(dataDir)).toBe(false);
  });

  it('refuses a bad WEB_CONCURRENCY with its range before anything else', async () => {
    const dataDir = path.join(scratch, 'data');
    const res = await start({ DATA_DIR: dataDir, WEB_CONCURRENCY: 'many' });
    expect(res.code).toBe(1);
    expect(res.stderr).toBe('WEB_CONCURRENCY must be a whole number from 1 to 64, got "many"\n');
    expect(existsSync(dataDir)).toBe(false);
  });
});
