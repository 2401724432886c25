import '../production';
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { readConfig } from '../config';
import { openDatabase } from '../db/database';
import { commandHelp, commands, COMMAND_HELP, HELP, OPTION_NAMES } from './commands';
import { CommandFailed } from './command-failed';

/**
 * `npm run --silent cli -- <command> [--option value …]`: stdout is exactly one JSON object;
 * errors go to stderr with exit code 1. Uses the server's DATABASE_URL / DATA_DIR; beside a
 * running embedded server it connects to that server's database instead of opening the files.
 */
async function main(argv: string[]) {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      ...Object.fromEntries(OPTION_NAMES.map((name) => [name, { type: 'string' as const }])),
      help: { type: 'boolean' as const, short: 'h' },
    },
  });
  const name = positionals[0] === 'help' ? positionals[1] : positionals[0];
  const command = name && Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (values.help || positionals[0] === 'help') {
    if (name && !command) throw new Error(`Unknown command: ${name} (see --help)`);
    process.stdout.write(command ? commandHelp(name!) : HELP);
    return;
  }
  if (!command) throw new Error(`Usage: cli <${Object.keys(commands).join('|')}> [--option value …] (see --help)`);
  const expected = COMMAND_HELP[name!].positionals ?? [];
  if (positionals.length !== expected.length + 1) {
    throw new Error(`Usage: cli ${name} ${COMMAND_HELP[name!].usage} (see ${name} --help)`);
  }
  const options = { ...values, help: undefined } as Record<string, string | undefined>;
  expected.forEach((argument, index) => (options[argument] = positionals[index + 1]));
  // A key given as `-` is read from standard input, so it stays out of the process list and shell history.
  if (options.key === '-') options.key = (await readStdin()).trim();
  const config = readConfig();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    shareRunningEmbedded: true,
    poolSize: 1,
  });
  try {
    const output = await database.orm.em.fork().transactional((em) => command(em, options));
    process.stdout.write(`${JSON.stringify(output)}\n`);
  } finally {
    await database.close();
  }
}

async function readStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  return text;
}

main(process.argv.slice(2)).catch((error) => {
  // A command that failed with a report (flags:import): the report still goes to standard output.
  if (error instanceof CommandFailed) process.stdout.write(`${JSON.stringify(error.output)}\n`);
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
