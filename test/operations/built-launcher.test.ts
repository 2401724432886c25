import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * `npm start` and the CLI run scripts/built.js: it starts a compiled entry point, or refuses a
 * missing or stale build with a message naming what to run. Checked on a project of its own
 * in a temporary folder, so the real src/ and dist/ are never touched.
 */
function project() {
  const root = mkdtempSync(path.join(tmpdir(), 'flags-launcher-'));
  mkdirSync(path.join(root, 'scripts'));
  mkdirSync(path.join(root, 'src'));
  copyFileSync(path.resolve(__dirname, '../../scripts/built.js'), path.join(root, 'scripts/built.js'));
  writeFileSync(path.join(root, 'src/main.ts'), 'export {};\n');
  return root;
}

const launch = (root: string) =>
  spawnSync(process.execPath, [path.join(root, 'scripts/built.js'), 'dist/main.js', '--flag'], { encoding: 'utf8' });

function build(root: string) {
  mkdirSync(path.join(root, 'dist'), { recursive: true });
  writeFileSync(path.join(root, 'dist/main.js'), 'process.stdout.write(JSON.stringify(process.argv.slice(2)));\n');
  const stamped = spawnSync(process.execPath, [path.join(root, 'scripts/built.js'), '--stamp']);
  expect(stamped.status).toBe(0);
}

describe('scripts/built.js', () => {
  it('refuses a missing build and says to run npm run build', () => {
    const res = launch(project());
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('The service is not built');
    expect(res.stderr).toContain('npm run build');
  });

  it('runs a fresh build with its arguments', () => {
    const root = project();
    const past = new Date(Date.now() - 60_000);
    utimesSync(path.join(root, 'src/main.ts'), past, past);
    build(root);
    const res = launch(root);
    expect([res.status, res.stdout]).toEqual([0, '["--flag"]']);
  });

  it('refuses a build older than a source and names the file', () => {
    const root = project();
    build(root);
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(root, 'src/main.ts'), later, later);
    const res = launch(root);
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('The build is stale: src/main.ts changed after the last build');
  });

  it('--check answers whether the build is current, without running it', () => {
    const root = project();
    const check = () => spawnSync(process.execPath, [path.join(root, 'scripts/built.js'), '--check', 'dist/main.js'], { encoding: 'utf8' });
    expect(check().status).toBe(1);
    const past = new Date(Date.now() - 60_000);
    utimesSync(path.join(root, 'src/main.ts'), past, past);
    build(root);
    expect([check().status, check().stdout]).toEqual([0, '']);
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(root, 'src/main.ts'), later, later);
    expect(check().stderr).toContain('The build is stale');
  });
});
