import 'reflect-metadata';
import cluster from 'node:cluster';
import { createServer } from 'node:http';
import type { Logger } from 'pino';
import { createApp } from './app';
import { portProblem } from './cluster/port';
import { answerClientErrors } from './http/client-errors';
import type { Config } from './config';
import { openDatabase } from './db/database';

/**
 * One serving process: open the database (migrations applied, or only checked in a worker whose
 * primary applied them) → createApp → listen; SIGTERM/SIGINT finish in-flight requests and exit.
 * The whole service when it runs alone, one worker of several under src/cluster/primary.ts.
 */
export async function runServer(config: Config, logger: Logger): Promise<void> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, createDatabase: config.createDatabase });
  const { app, stop } = await createApp({
    orm: database.orm,
    logger,
    trustProxy: config.trustProxy,
    changesUrl: config.databaseUrl,
    rateLimit: config.rateLimit,
    corsOrigins: config.corsOrigins,
    metricsToken: config.metricsToken,
    jobs: {},
  });
  // A client gets REQUEST_TIMEOUT_MS to send a whole request and HEADERS_TIMEOUT_MS for its headers
  // (then 408 and the socket closes); checked every second rather than Node's default 30 s.
  const server = createServer(
    {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: config.headersTimeoutMs,
      connectionsCheckingInterval: 1000,
    },
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's handler settles every request's errors itself
    app.callback(),
  );
  answerClientErrors(server);
  // The port was free a moment ago (src/main.ts checked); taken since, it is said as plainly.
  server.once('error', (error) => {
    const problem = portProblem(error, config.host, config.port);
    process.stderr.write(`${problem ?? error.stack ?? error.message}\n`);
    void stop()
      .then(() => database.close())
      .finally(() => process.exit(1));
  });
  server.listen(config.port, config.host, () => {
    logger.info(
      {
        url: `http://${config.host}:${config.port}`,
        database: database.description,
        rate_limits: rateLimitStore(config),
        statement_timeout_ms: config.statementTimeoutMs,
        ...(cluster.isWorker ? { worker: cluster.worker?.id } : {}),
      },
      'listening',
    );
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    // Stop accepting; idle keep-alive sockets go now, busy ones after their response.
    server.close(() => {
      void (async () => {
        await stop();
        await database.close();
        logger.info('stopped');
        process.exit(0);
      })();
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

/** Where the rate-limit windows live, for the start line. */
function rateLimitStore(config: Config): string {
  if (!config.rateLimit.enabled) return 'off';
  if (config.rateLimit.redisUrl) return 'redis';
  return cluster.isWorker ? 'primary' : 'memory';
}
