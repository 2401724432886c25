/**
 * The peer's process: Unleash (installed by install.ts, outside the repository) started through its
 * documented `start(options)` on PEER_DATABASE_URL, listening on 127.0.0.1:PEER_PORT, with one admin
 * API token (PEER_ADMIN_TOKEN) for the bench's requests. Sends `{ ready: true }` once it listens.
 */
import { pathToFileURL } from 'node:url';

type Unleash = { stop(): Promise<void> };
type UnleashModule = { start(options: Record<string, unknown>): Promise<Unleash> };

async function main() {
  const database = new URL(process.env.PEER_DATABASE_URL!);
  // Unleash reads DATABASE_URL and friends itself; the bench's own must not reach it.
  for (const name of ['DATABASE_URL', 'DATABASE_URL_FILE', 'PORT', 'HTTP_PORT', 'BASE_URI_PATH']) delete process.env[name];
  const { start } = (await import(pathToFileURL(process.env.PEER_ENTRY!).href)) as UnleashModule;
  const unleash = await start({
    db: {
      host: database.hostname,
      port: Number(database.port || 5432),
      user: decodeURIComponent(database.username),
      password: decodeURIComponent(database.password),
      database: database.pathname.slice(1),
      ssl: false,
    },
    server: { host: '127.0.0.1', port: Number(process.env.PEER_PORT) },
    logLevel: 'error',
    versionCheck: { enable: false },
    telemetry: false,
    authentication: {
      initApiTokens: [{ type: 'admin', secret: process.env.PEER_ADMIN_TOKEN, projects: ['*'], environment: '*', tokenName: 'bench' }],
    },
  });
  const stop = () => {
    void unleash
      .stop()
      .catch(() => undefined)
      .finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  // Bounded lifetime: a peer whose parent is gone stops too.
  process.on('disconnect', stop);
  process.send!({ ready: true });
}

main().catch((error) => {
  process.stderr.write(`peer (Unleash): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
