import '../production';
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { readConfig } from '../config';
import { openDatabase } from '../db/database';
import { commands, HELP, OPTION_NAMES } from './commands';

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
  if (values.help || positionals[0] === 'help') {
    process.stdout.write(HELP);
    return;
  }
  const name = positionals[0];
  const command = name ? commands[name] : undefined;
  if (!command || positionals.length !== 1) {
    throw new Error(`Usage: cli <${Object.keys(commands).join('|')}> [--option value …] (see --help)`);
  }
  const options = { ...values, help: undefined } as Record<string, string | undefined>;
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
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
