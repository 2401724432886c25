import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
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

function build(root: string, entry = 'dist/main.js', source = 'process.stdout.write(JSON.stringify(process.argv.slice(2)));\n') {
  mkdirSync(path.dirname(path.join(root, entry)), { recursive: true });
  writeFileSync(path.join(root, entry), source);
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

  it("`npm start` gives node the heap settings of package.json's config (docs/operations.md, Runtime)", () => {
    const root = project();
    const past = new Date(Date.now() - 60_000);
    utimesSync(path.join(root, 'src/main.ts'), past, past);
    const pkg = JSON.parse(readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as {
      config: { service_node_args: string };
      scripts: { start: string };
    };
    writeFileSync(
      path.join(root, 'package.json'),
      JSON.stringify({ name: 'launcher', private: true, config: pkg.config, scripts: { start: pkg.scripts.start } }),
    );
    build(root, 'dist/src/main.js', 'process.stdout.write(JSON.stringify(process.execArgv));\n');
    const res = spawnSync('npm', ['start', '--silent'], { cwd: root, encoding: 'utf8' });
    expect(res.stderr).toBe('');
    const args = JSON.parse(res.stdout) as string[];
    expect(args).toEqual(pkg.config.service_node_args.split(' '));
    expect(args).toEqual(
      expect.arrayContaining([expect.stringMatching(/^--max-semi-space-size=\d+$/), expect.stringMatching(/^--heap-growing-percent=\d+$/)]),
    );
  });
});
