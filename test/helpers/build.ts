import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const lock = path.join(root, 'dist.building');

/**
 * Makes dist/ current for the tests that drive the built service: a fresh checkout (npm ci built
 * it) costs nothing, a stale one is built once. Test files run in parallel, so one build at a
 * time: a directory is the lock, and whoever waited re-checks before building.
 */
export async function ensureBuilt(): Promise<void> {
  const current = () => spawnSync('node', ['scripts/built.js', '--check'], { cwd: root }).status === 0;
  if (current()) return;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock left by a killed run (a build takes well under a minute) is taken over.
      if (Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 300_000) rmdirSync(lock);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    if (!current()) execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'ignore' });
  } finally {
    rmdirSync(lock);
  }
}
