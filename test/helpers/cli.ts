import { runCli } from '../../src/cli/run';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { transformSync } from '@swc/core';

/**
 * The CLI as its own process over a test's database. The sources are transpiled on the fly with
 * swc (the transform jest uses) into a scratch directory, so a suite needs no `npm run build` and
 * never races a build of dist/.
 */
const root = path.resolve(__dirname, '../..');

/** What a refused lookup adds when DATABASE_URL names `url` (README "CLI": the CLI names the database it looked in). */
export function lookedIn(url: string): string {
  const { hostname, port, pathname } = new URL(url);
  return ` (looked in the PostgreSQL database "${pathname.slice(1)}" at ${hostname}:${port || 5432}, from DATABASE_URL).`;
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

function transpileFile(source: string, target: string) {
  const { code } = transformSync(readFileSync(source, 'utf8'), {
    filename: source,
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  });
  writeFileSync(target.replace(/\.ts$/, '.js'), code);
}

function transpileDirectory(from: string, to: string) {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from)) {
    const source = path.join(from, entry);
    if (statSync(source).isDirectory()) transpileDirectory(source, path.join(to, entry));
    else if (entry.endsWith('.ts')) transpileFile(source, path.join(to, entry));
  }
}

const withoutUnset = (env: NodeJS.ProcessEnv) => Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined));

/** Transpiles the CLI once; `run` starts it with `DATABASE_URL` set to the given database. */
export function transpiledCli() {
  const out = mkdtempSync(path.join(tmpdir(), 'flags-cli-'));
  transpileDirectory(path.join(root, 'src'), path.join(out, 'src'));
  transpileFile(path.join(root, 'mikro-orm.config.ts'), path.join(out, 'mikro-orm.config.ts'));
  symlinkSync(path.join(root, 'node_modules'), path.join(out, 'node_modules'));
  return {
    dir: out,
    /** `env` is laid over this process's, after DATABASE_URL: `{DATABASE_URL: undefined}` runs it without one. */
    run(databaseUrl: string, args: string[], options: { stdin?: string; cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliRun> {
      return new Promise((resolve) => {
        const child = execFile(
          'node',
          [path.join(out, 'src/cli/main.js'), ...args],
          {
            env: withoutUnset({ ...process.env, DATABASE_URL: databaseUrl, ...options.env }),
            cwd: options.cwd,
            maxBuffer: 64 * 1024 * 1024,
          },
          (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
        );
        child.stdin!.end(options.stdin ?? '');
      });
    },
    remove() {
      rmSync(out, { recursive: true, force: true });
    },
  };
}

/**
 * The CLI's own entry (src/cli/run.ts) run in this process with captured streams: the same parsing,
 * commands and exit code as `transpiledCli`, without starting node for every invocation. Suites
 * keep a few runs as real processes for what only a process shows (the launcher, a terminal).
 */
export function inProcessCli() {
  return {
    async run(databaseUrl: string, args: string[], options: { stdin?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliRun> {
      let stdout = '';
      let stderr = '';
      const code = await runCli(args, {
        stdout: (text) => void (stdout += text),
        stderr: (text) => void (stderr += text),
        readStdin: async () => options.stdin ?? '',
        env: { ...process.env, DATABASE_URL: databaseUrl, ...options.env },
      });
      return { code, stdout, stderr };
    },
  };
}
