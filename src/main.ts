import './production';
import 'reflect-metadata';
import { createServer } from 'node:http';
import { createApp } from './app';
import { readConfig } from './config';
import { openDatabase } from './db/database';
import { createLogger } from './http/logging';

/** read env → open database (embedded or DATABASE_URL) → createApp → listen. */
async function main() {
  const config = readConfig(process.env, process.argv.slice(2));
  // JSON lines; database errors logged without SQL values, credentials censored, request ids attached.
  const logger = createLogger(config.logLevel);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, createDatabase: config.createDatabase });
  const { app, stop } = await createApp({
    orm: database.orm,
    logger,
    trustProxy: config.trustProxy,
    changesUrl: config.databaseUrl,
    rateLimit: config.rateLimit,
    corsOrigins: config.corsOrigins,
    metricsToken: config.metricsToken,
  });
  // A client gets REQUEST_TIMEOUT_MS to send a whole request and HEADERS_TIMEOUT_MS for its headers
  // (then 408 and the socket closes); checked every second rather than Node's default 30 s.
  const server = createServer(
    {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: config.headersTimeoutMs,
      connectionsCheckingInterval: 1000,
    },
    app.callback(),
  );
  server.listen(config.port, config.host, () => {
    logger.info(
      {
        url: `http://${config.host}:${config.port}`,
        database: database.description,
        rate_limits: config.rateLimit.enabled ? (config.rateLimit.redisUrl ? 'redis' : 'memory') : 'off',
        statement_timeout_ms: config.statementTimeoutMs,
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
    server.close(async () => {
      await stop();
      await database.close();
      logger.info('stopped');
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
