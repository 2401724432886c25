#!/usr/bin/env node
'use strict';
/**
 * Runs a compiled entry point, or says plainly why it cannot. `npm run build` (which `npm install`
 * and `npm ci` run through `prepare`) compiles src/ into dist/ once, so `npm start` and every CLI
 * command only start node. `built.js --stamp` records a finished build.
 *
 *   node scripts/built.js dist/src/main.js [args…]
 */
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const stamp = path.join(root, 'dist', '.build-stamp');
/** What the build reads; a newer file here means dist/ is stale. */
const SOURCES = ['src', 'web', 'mikro-orm.config.ts', 'tsconfig.json', 'tsconfig.build.json'];

function newestChange(file) {
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return { time: 0, file };
  }
  if (!stat.isDirectory()) return { time: stat.mtimeMs, file };
  let newest = { time: 0, file };
  for (const entry of fs.readdirSync(file)) {
    const candidate = newestChange(path.join(file, entry));
    if (candidate.time > newest.time) newest = candidate;
  }
  return newest;
}

function fail(message) {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/** Why `target` cannot run (missing or stale build), or null when dist/ is current. */
function buildProblem(target) {
  if (!fs.existsSync(target) || !fs.existsSync(stamp)) {
    return `The service is not built (${path.relative(root, target)} is missing). Run \`npm run build\` (npm install runs it too).`;
  }
  const built = fs.statSync(stamp).mtimeMs;
  for (const source of SOURCES) {
    const changed = newestChange(path.join(root, source));
    if (changed.time > built)
      return `The build is stale: ${path.relative(root, changed.file)} changed after the last build. Run \`npm run build\`.`;
  }
  return null;
}

const [entry, ...args] = process.argv.slice(2);
if (entry === '--stamp') {
  fs.writeFileSync(stamp, `${new Date().toISOString()}\n`);
  process.exit(0);
}
// `--check [entry]`: exit 0 when the build is current, else 1 with the reason (tests build only when needed).
if (entry === '--check') {
  const problem = buildProblem(path.resolve(root, args[0] ?? 'dist/src/main.js'));
  if (problem) fail(problem);
  process.exit(0);
}
if (!entry) fail('usage: node scripts/built.js <dist entry point> [args…]');
const target = path.resolve(root, entry);
const problem = buildProblem(target);
if (problem) fail(problem);
process.argv = [process.argv[0], target, ...args];
require(target);
