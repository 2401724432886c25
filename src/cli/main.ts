import '../production';
import 'reflect-metadata';
import { runCli } from './run';

/** `npm run --silent cli -- <command> [--option value …]`: the CLI on this process's streams (src/cli/run.ts). */
async function readStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  return text;
}

void runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readStdin,
  env: process.env,
}).then((code) => {
  process.exitCode = code;
});
