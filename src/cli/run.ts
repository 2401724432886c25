import path from 'node:path';
import { parseArgs } from 'node:util';
import { readConfig, type Config } from '../config';
import { openDatabase } from '../db/database';
import { CommandFailed } from './command-failed';
import { commandHelp, commands, COMMAND_HELP, HELP, OPTION_NAMES } from './commands';
import { LookupFailed } from './lookup-failed';

/** Where a CLI run reads and writes: the process's own streams (main.ts), or a test's buffers. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  readStdin(): Promise<string>;
  env: NodeJS.ProcessEnv;
}

/**
 * One CLI invocation: standard output gets exactly one JSON object (or the help text); errors go
 * to standard error. Answers the exit code. Uses DATABASE_URL / DATA_DIR; beside a running embedded
 * server it connects to that server's database instead of opening the files.
 */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  try {
    await run(argv, io);
    return 0;
  } catch (error) {
    // A command that failed with a report (flags:import): the report still goes to standard output.
    if (error instanceof CommandFailed) io.stdout(`${JSON.stringify(error.output)}\n`);
    io.stderr(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

async function run(argv: string[], io: CliIO): Promise<void> {
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
    io.stdout(command ? commandHelp(name!) : HELP);
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
  if (options.key === '-') options.key = (await io.readStdin()).trim();
  const config = readConfig(io.env);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    shareRunningEmbedded: true,
    poolSize: 1,
    createDatabase: config.createDatabase,
  });
  try {
    const output = await database.orm.em.fork().transactional((em) => command(em, options));
    io.stdout(`${JSON.stringify(output)}\n`);
  } catch (error) {
    if (error instanceof LookupFailed) throw new LookupFailed(`${error.message} (looked in ${whereLooked(config)}).`);
    throw error;
  } finally {
    await database.close();
  }
}

/** Which database a lookup went to, and how to choose another, in words for an operator. */
function whereLooked(config: Config): string {
  if (config.databaseUrl) {
    const url = new URL(config.databaseUrl);
    return `the PostgreSQL database "${decodeURIComponent(url.pathname.slice(1))}" at ${url.hostname}:${url.port || 5432}, from DATABASE_URL`;
  }
  return (
    `the embedded database in ${path.resolve(config.dataDir)}, as DATABASE_URL is not set; ` +
    "set DATABASE_URL to use the server's PostgreSQL, or DATA_DIR for another directory"
  );
}
