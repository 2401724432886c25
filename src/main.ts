import './production';
import 'reflect-metadata';
import { createServer } from 'node:http';
import pino from 'pino';
import { createApp } from './app';
import { readConfig } from './config';
import { openDatabase } from './db/database';

/** read env → open database (embedded or DATABASE_URL) → createApp → listen. */
async function main() {
  const config = readConfig();
  const logger = pino({ level: config.logLevel });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const { app, stop } = await createApp({
    orm: database.orm,
    logger,
    trustProxy: config.trustProxy,
    changesUrl: config.databaseUrl,
  });
  const server = createServer(app.callback());
  server.listen(config.port, config.host, () => {
    logger.info({ url: `http://${config.host}:${config.port}`, database: database.description }, 'listening');
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
