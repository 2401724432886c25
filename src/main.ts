import './production';
import cluster from 'node:cluster';
import { ensurePortFree } from './cluster/port';
import { StartRefusal } from './start-refusal';
import { workerCount } from './cluster/worker-count';
import { readConfig } from './config';
import { createLogger } from './http/logging';

/**
 * read env → port free? → one process (src/server.ts), or WEB_CONCURRENCY workers under a primary
 * (src/cluster/primary.ts). The port is checked before the data directory or the database is touched.
 * The serving code is loaded only where it runs: the primary never builds an app.
 */
async function main() {
  const config = readConfig(process.env, process.argv.slice(2));
  // JSON lines; database errors logged without SQL values, credentials censored, request ids attached.
  const logger = createLogger(config.logLevel);
  /* eslint-disable @typescript-eslint/no-require-imports */
  if (cluster.isWorker) {
    // The primary checked the port and applied the migrations.
    return (require('./server') as typeof import('./server')).runServer(config, logger);
  }
  const { workers, warning } = workerCount(process.env, !config.databaseUrl);
  await ensurePortFree(config.host, config.port);
  if (warning) logger.warn(warning);
  if (workers === 1) return (require('./server') as typeof import('./server')).runServer(config, logger);
  return (require('./cluster/primary') as typeof import('./cluster/primary')).runPrimary(config, logger, workers);
  /* eslint-enable @typescript-eslint/no-require-imports */
}

main().catch((error) => {
  // An operator's mistake is one sentence; anything else keeps its stack.
  const text = error instanceof StartRefusal ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`${text}\n`);
  process.exit(1);
});
