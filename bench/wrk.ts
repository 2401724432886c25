import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { quiescingRunner, type HttpLoad, type Runner, type Sample } from './load';

/** Whether `wrk` (Debian's package) is on the PATH. */
export function wrkAvailable(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    // `wrk --version` prints its version and exits 1; only a missing binary is ENOENT.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/** How many different bodies a `makeBody` load rotates through (the bench's subjects are 1,000). */
const BODIES = 1000;
const PERCENTILES = Array.from({ length: 99 }, (_, i) => i + 1);

/**
 * The script wrk runs: the load's method and headers, its body (or `BODIES` bodies made beforehand,
 * one per line, taken in turn), and at the end one line with the totals and the latency percentiles.
 * Statuses are not read one by one (that would hand every answer to Lua): wrk counts those ≥ 400.
 */
function script(load: HttpLoad, bodiesFile: string | null): string {
  const headers = Object.entries(load.headers)
    .map(([name, value]) => `wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`)
    .join('\n');
  const body = bodiesFile
    ? `local bodies = {}
for line in io.lines(${JSON.stringify(bodiesFile)}) do bodies[#bodies + 1] = line end
local i = 0
request = function()
  i = i % #bodies + 1
  return wrk.format(nil, nil, nil, bodies[i])
end`
    : load.body !== undefined
      ? `wrk.body = ${JSON.stringify(String(load.body))}`
      : '';
  return `wrk.method = ${JSON.stringify(load.method)}
${headers}
${body}
done = function(summary, latency, requests)
  local e = summary.errors
  local line = string.format("WRK %d %d %d", summary.requests, summary.duration, e.connect + e.read + e.write + e.status + e.timeout)
  for _, p in ipairs({${PERCENTILES.join(', ')}}) do line = line .. " " .. latency:percentile(p) end
  io.write(line .. "\\n")
end
`;
}

function parse(stdout: string, load: HttpLoad): Sample {
  const line = stdout.split('\n').find((l) => l.startsWith('WRK '));
  if (!line) throw new Error(`wrk printed no summary:\n${stdout}`);
  const [requests, durationUs, errors, ...percentiles] = line.slice(4).trim().split(/\s+/).map(Number);
  const answered = requests - errors;
  return {
    // The latency distribution as its percentiles (ms): enough for the p50 and p99 the table shows.
    latencies: percentiles.map((us) => us / 1000),
    count: answered * (load.perRequest ?? 1),
    seconds: durationUs / 1e6,
    errors,
    statuses: { [String(load.expect)]: answered, ...(errors ? { 'error or ≥ 400': errors } : {}) },
  };
}

/**
 * Like `httpRunner`, with wrk (C, one thread) as the load generator instead of autocannon in this
 * process: for the rows that measure how the service uses the cores (the workers row), where a
 * generator parsing every answer in JavaScript takes a core of its own.
 */
export function wrkRunner(url: string, load: HttpLoad, connections: number, pid: number): Runner {
  const dir = mkdtempSync(path.join(tmpdir(), 'flagship-wrk-'));
  let bodiesFile: string | null = null;
  if (load.makeBody) {
    bodiesFile = path.join(dir, 'bodies.txt');
    writeFileSync(bodiesFile, Array.from({ length: BODIES }, () => String(load.makeBody!())).join('\n'));
  }
  const scriptFile = path.join(dir, 'load.lua');
  writeFileSync(scriptFile, script(load, bodiesFile));
  const target = new URL(load.path, url).toString();
  const wrk = (seconds: number) =>
    new Promise<Sample>((resolve, reject) => {
      execFile('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '-s', scriptFile, target], (error, stdout, stderr) => {
        if (error) reject(new Error(`wrk failed: ${stderr || error.message}`));
        else resolve(parse(stdout, load));
      });
    });
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return quiescingRunner(wrk, pid);
}
