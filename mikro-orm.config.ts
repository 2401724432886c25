import { defineConfig } from '@mikro-orm/postgresql';
import { entities } from './src/db/entities';
import { statementTimeoutDriverOptions } from './src/db/statement-timeout';

/**
 * One config for the app, the CLI and the tests. `clientUrl` is filled in at start: either
 * DATABASE_URL or the embedded server's URL (src/db/database.ts).
 */
export function ormConfig(clientUrl: string, options: { poolSize?: number; statementTimeoutMs?: number } = {}) {
  return defineConfig({
    clientUrl,
    entities,
    discovery: { disableDynamicFileAccess: true, requireEntitiesArray: true },
    allowGlobalContext: false,
    forceUtcTimezone: true,
    pool: { min: 0, max: options.poolSize ?? 10 },
    // Never create a missing database on connect: src/db/ensure-database.ts refuses it unless asked.
    ensureDatabase: false,
    // STATEMENT_TIMEOUT_MS (default 15 s) on every connection; see src/db/statement-timeout.ts.
    driverOptions: statementTimeoutDriverOptions(options.statementTimeoutMs),
    // The list itself is added by src/db/migrate.ts when something is pending.
    migrations: { transactional: true, allOrNothing: true, snapshot: false, silent: true },
    // Pretty-printed SQL and metadata caching are development conveniences we do not want at run time.
    metadataCache: { enabled: false },
  });
}

export default ormConfig(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
