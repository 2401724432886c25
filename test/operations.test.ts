// @slow: starts the built service on a fresh embedded database and runs the CLI beside it
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureBuilt } from './helpers/build';
import { promisify } from 'node:util';
import { fetchChecked } from './helpers/openapi-contract';
import { freePort } from './helpers/service-process';

/**
 * The newcomer's path on the built artefact: the server on the embedded database, the CLI
 * beside it, a flag over REST read back over GraphQL, and a clean stop on SIGTERM.
 */
const root = path.resolve(__dirname, '..');
const run = promisify(execFile);
let dataDir: string;
let server: ChildProcess;
let baseUrl: string;
const env = () => {
  const { DATABASE_URL: _ignored, ...rest } = process.env;
  return { ...rest, DATA_DIR: dataDir };
};

// Each case runs the CLI as processes of its own (up to four, each loading the app): a few seconds
// alone, but over jest's 30 s was seen in CI with both cores busy.
jest.setTimeout(120_000);

const cli = (...args: string[]) => run('node', ['dist/src/cli/main.js', ...args], { cwd: root, env: env() });

function waitForListening(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      if (output.includes('"msg":"listening"')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
}

beforeAll(async () => {
  await ensureBuilt();
  dataDir = mkdtempSync(path.join(tmpdir(), 'flags-ops-'));
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  server = spawn('node', ['dist/src/main.js'], { cwd: root, env: { ...env(), PORT: String(port), HOST: '127.0.0.1' } });
  await waitForListening(server);
}, 180_000);

afterAll(() => {
  if (server.exitCode === null) server.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('running the service', () => {
  let bootstrap: Record<string, any>;

  it('answers the health check once the database answers', async () => {
    const res = await fetchChecked(`${baseUrl}/_health`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('bootstraps beside the running server and prints exactly one JSON object', async () => {
    const { stdout } = await cli(
      'bootstrap',
      '--email',
      'newcomer@example.com',
      '--first-name',
      'New',
      '--organization',
      'Acme',
      '--project',
      'Web',
    );
    bootstrap = JSON.parse(stdout);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    expect(Object.keys(bootstrap).sort()).toEqual(
      ['organization_id', 'personal_api_key', 'project_api_token', 'project_id', 'project_secret_token', 'user'].sort(),
    );
    expect(bootstrap.personal_api_key).toMatch(/^phx_[0-9A-Za-z]{43}$/);
    expect(bootstrap.project_api_token).toMatch(/^phc_/);
    expect(bootstrap.project_secret_token).toMatch(/^phs_/);
    expect(Object.keys(bootstrap.user).sort()).toEqual(['distinct_id', 'email', 'id', 'uuid']);
  });

  it('creates a flag over REST and reads it over GraphQL', async () => {
    const headers = { authorization: `Bearer ${bootstrap.personal_api_key}`, 'content-type': 'application/json' };
    const created = await fetchChecked(`${baseUrl}/api/projects/${bootstrap.project_id}/feature_flags/`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ key: 'smoke-flag', name: 'Smoke' }),
    });
    expect(created.status).toBe(201);
    const read = await fetchChecked(`${baseUrl}/graphql`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        query: `{ featureFlag(projectId: "${bootstrap.project_id}", key: "smoke-flag") { name createdBy { email } } }`,
      }),
    });
    expect(read.body).toEqual({ data: { featureFlag: { name: 'Smoke', createdBy: { email: 'newcomer@example.com' } } } });
  });

  it('creates users, scoped keys and projects', async () => {
    const member = JSON.parse(
      (await cli('user:create', '--organization', bootstrap.organization_id, '--email', 'member@example.com', '--level', 'admin')).stdout,
    );
    expect(member.personal_api_key).toMatch(/^phx_/);
    expect(member.user.email).toBe('member@example.com');
    const project = JSON.parse((await cli('project:create', '--organization', bootstrap.organization_id, '--name', 'Second')).stdout);
    expect(project.project_id).toBeGreaterThan(bootstrap.project_id);
    const key = JSON.parse(
      (await cli('key:create', '--email', 'member@example.com', '--scopes', 'feature_flag:read', '--projects', String(project.project_id)))
        .stdout,
    );
    expect(key).toEqual({ personal_api_key: expect.stringMatching(/^phx_/), id: expect.any(Number) });
    const other = await fetchChecked(`${baseUrl}/api/projects/${bootstrap.project_id}/feature_flags/`, {
      headers: { authorization: `Bearer ${key.personal_api_key}` },
    });
    expect(other.status).toBe(403);
    const own = await fetchChecked(`${baseUrl}/api/projects/${project.project_id}/feature_flags/`, {
      headers: { authorization: `Bearer ${key.personal_api_key}` },
    });
    expect(own.status).toBe(200);
  });

  it('reports CLI errors on stderr with a non-zero exit and nothing on stdout', async () => {
    for (const args of [
      ['key:create', '--email', 'nobody@example.com'],
      ['key:create', '--email', 'member@example.com', '--scopes', 'bogus:read'],
      ['nonsense'],
      ['bootstrap'],
    ]) {
      const failure = await cli(...args).then(
        () => null,
        (error) => error,
      );
      expect(failure).not.toBeNull();
      expect(failure.code).toBe(1);
      expect(failure.stdout).toBe('');
      expect(failure.stderr).toMatch(/^error: /);
    }
  });

  it('stops cleanly on SIGTERM and releases the data directory', async () => {
    const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(path.join(dataDir, 'socket.json'))).toBe(false);
    // The data outlives the process: the CLI can now open the directory itself.
    const { stdout } = await cli('key:create', '--email', 'newcomer@example.com');
    expect(JSON.parse(stdout).personal_api_key).toMatch(/^phx_/);
  }, 30_000);
});
