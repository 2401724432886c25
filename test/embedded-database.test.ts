// @slow: starts the built service on a fresh embedded database, then kills and restarts it
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureBuilt } from './helpers/build';
import { promisify } from 'node:util';
import { fetchChecked } from './helpers/openapi-contract';
import { freePort } from './helpers/service-process';

/**
 * Who owns DATA_DIR, on the built service: a supervisor's immediate restart after SIGKILL opens
 * the directory (with the data committed before the kill) although the killed process lingers,
 * and a second live server is refused while the first keeps serving. Linux only: it reads
 * process states from /proc, and elsewhere a zombie cannot be told from a live process.
 */
const root = path.resolve(__dirname, '..');
const run = promisify(execFile);
// How long a start may take before the test gives up: a fresh directory is created by a child
// process that needs seconds of CPU, which a loaded CI machine (the full sweeps run beside) stretches.
const START_BOUND_MS = 180_000;
let dataDir: string;
let port: number;
let baseUrl: string;
const parents: ChildProcess[] = [];
let bootstrap: { personal_api_key: string; project_id: number };

interface Server {
  pid: number;
  stderr(): string;
  /** stderr, then the last 4,000 characters of stdout (its log). */
  output(): string;
}
let server: Server;

const env = (extra: Record<string, string> = {}) => {
  const { DATABASE_URL: _ignored, ...rest } = process.env;
  return { ...rest, DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...extra };
};

/** The process state letter from /proc (R, S, D, Z, …), or null once the process is gone. */
function stateOf(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0];
  } catch {
    return null;
  }
}
const running = (pid: number) => !['Z', 'X', null].includes(stateOf(pid));

/**
 * Starts dist/src/main.js under a parent that never reaps it (sh runs it in the background, then
 * becomes `sleep`): once killed, the server stays a zombie, as under a supervisor that restarts
 * before it has collected its dead child. kill(pid, 0) still succeeds on a zombie.
 */
async function startServer(): Promise<Server> {
  const parent = spawn('sh', ['-c', 'node dist/src/main.js & echo $!; exec sleep 3600'], { cwd: root, env: env({ PORT: String(port) }) });
  parents.push(parent);
  let stderr = '';
  parent.stderr!.on('data', (chunk) => (stderr += chunk));
  const pid = parseInt(await new Promise<string>((resolve) => parent.stdout!.once('data', (chunk) => resolve(String(chunk)))), 10);
  // The server logs to stdout (warnings and errors at LOG_LEVEL=warn): kept, so a failure says why it exited.
  let stdout = '';
  parent.stdout!.on('data', (chunk) => (stdout = (stdout + String(chunk)).slice(-4000)));
  return { pid, stderr: () => stderr, output: () => `${stderr}${stdout}` };
}

/** Resolves with the milliseconds it took /_health to answer 200; rejects if the server dies first. */
async function healthy(target: Server, boundMs = START_BOUND_MS): Promise<number> {
  const began = Date.now();
  while (Date.now() - began < boundMs) {
    if (!running(target.pid)) throw new Error(`server ${target.pid} exited before answering: ${target.output()}`);
    const status = await fetchChecked(`${baseUrl}/_health`).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) return Date.now() - began;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no healthy answer within ${boundMs} ms: ${target.output()}`);
}

const headers = () => ({ authorization: `Bearer ${bootstrap.personal_api_key}`, 'content-type': 'application/json' });
const flagsUrl = () => `${baseUrl}/api/projects/${bootstrap.project_id}/feature_flags/`;

async function createFlag(key: string): Promise<void> {
  const res = await fetchChecked(flagsUrl(), { method: 'POST', headers: headers(), body: JSON.stringify({ key }) });
  expect(res.status).toBe(201);
}

async function flagKeys(): Promise<string[]> {
  const res = await fetchChecked<{ results: { key: string }[] }>(`${flagsUrl()}?limit=100`, { headers: headers() });
  expect(res.status).toBe(200);
  return res.body.results.map((flag) => flag.key).sort();
}

const linux = process.platform === 'linux' ? describe : describe.skip;

linux('the embedded database directory', () => {
  beforeAll(async () => {
    await ensureBuilt();
    dataDir = mkdtempSync(path.join(tmpdir(), 'flags-embedded-'));
    port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    server = await startServer();
    await healthy(server);
    const { stdout } = await run('node', ['dist/src/cli/main.js', 'bootstrap', '--email', 'crash@example.com'], { cwd: root, env: env() });
    bootstrap = JSON.parse(stdout);
    await createFlag('before-any-kill');
  }, 2 * START_BOUND_MS);

  afterAll(() => {
    if (server && running(server.pid)) process.kill(server.pid, 'SIGKILL');
    // Killing the `sleep` parents hands their zombies to init, which reaps them.
    for (const parent of parents) parent.kill('SIGKILL');
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'is opened again by a restart right after SIGKILL, with the data committed before the kill',
    async () => {
      const expected = ['before-any-kill'];
      for (let round = 1; round <= 3; round++) {
        await createFlag(`written-before-kill-${round}`);
        expected.push(`written-before-kill-${round}`);
        const killed = server;
        process.kill(killed.pid, 'SIGKILL');
        // What a supervisor does: start again as soon as the child has died (a zombie here, never
        // reaped), on the same port. SIGKILL lands asynchronously; until it has, the port is still held
        // and the new server would rightly refuse it at start.
        while (running(killed.pid)) await new Promise((resolve) => setTimeout(resolve, 5));
        server = await startServer();
        await healthy(server).catch(async (error: Error) => {
          // The freed port is anyone's until the restart binds it: another file's server or an
          // outgoing connection can take it first. The directory is what is under test, not the port.
          if (!server.stderr().includes('is already in use')) throw error;
          port = await freePort();
          baseUrl = `http://127.0.0.1:${port}`;
          server = await startServer();
          await healthy(server);
        });
        // The new server took over while the killed one still had its pid.
        expect(stateOf(killed.pid)).toBe('Z');
        expect(await flagKeys()).toEqual([...expected].sort());
      }
    },
    4 * START_BOUND_MS,
  );

  it(
    'refuses a second live server, which names the holder, while the first keeps serving',
    async () => {
      const second = spawn('node', ['dist/src/main.js'], { cwd: root, env: env({ PORT: String(await freePort()) }) });
      let stderr = '';
      second.stderr.on('data', (chunk) => (stderr += chunk));
      second.stdout.resume();
      expect(await new Promise((resolve) => second.once('exit', resolve))).toBe(1);
      // One sentence for the operator, no stack (src/start-refusal.ts).
      expect(stderr).toMatch(new RegExp(`^Embedded database .* is already open by process ${server.pid}; stop it first .*\\n$`));
      expect(stderr).not.toMatch(/\n\s+at /);
      expect((await fetchChecked(`${baseUrl}/_health`)).status).toBe(200);
      expect(await flagKeys()).toContain('before-any-kill');
      expect(readFileSync(path.join(dataDir, 'embedded.lock'), 'utf8')).toContain(String(server.pid));
    },
    START_BOUND_MS,
  );
});
