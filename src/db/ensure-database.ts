import { Client } from 'pg';
import { StartRefusal } from '../start-refusal';

/** PostgreSQL's SQLSTATEs: the database named at connect does not exist; CREATE DATABASE lost a race. */
const INVALID_CATALOG_NAME = '3D000';
const DUPLICATE_DATABASE = '42P04';
const CONNECT_TIMEOUT_MS = 10_000;

/** A start-up refusal the operator reads as is (the server's last words, the CLI's `error:` line). */
export class DatabaseMissing extends StartRefusal {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseMissing';
  }
}

const quoteIdentifier = (name: string) => `"${name.replace(/"/g, '""')}"`;

function missingMessage(url: URL, name: string): string {
  const host = url.hostname || 'localhost';
  const port = url.port || '5432';
  const user = decodeURIComponent(url.username) || 'postgres';
  return [
    `Database "${name}" does not exist on the PostgreSQL server at ${host}:${port} (named by DATABASE_URL); nothing was created.`,
    `Check the name for a typo, or create it: createdb -h ${host} -p ${port} -U ${user} '${name.replace(/'/g, `'\\''`)}'`,
    'or let the service create it: start it once with `npm start -- --create-database`, or set CREATE_DATABASE=true.',
  ].join('\n');
}

/**
 * Before the pool opens: the database DATABASE_URL names must exist. A typo in its name used to
 * create a new, empty database (MikroORM's ensureDatabase, now off in mikro-orm.config.ts), which
 * looks like lost data; now it is refused unless `create` (--create-database, CREATE_DATABASE=true)
 * asks for it. One short connection when the database exists. Other connection failures (server
 * down, bad password) are left to the pool's own error, as before.
 */
export async function ensureDatabase(databaseUrl: string, options: { create: boolean }): Promise<{ created: boolean }> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1)) || decodeURIComponent(url.username) || 'postgres';
  const probe = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return { created: false };
  } catch (error) {
    if ((error as { code?: string }).code !== INVALID_CATALOG_NAME) return { created: false };
  } finally {
    await probe.end().catch(() => undefined);
  }
  if (!options.create) throw new DatabaseMissing(missingMessage(url, name));
  // CREATE DATABASE runs from the server's maintenance database (template1 if that is the one missing).
  const maintenance = Object.assign(new URL(databaseUrl), { pathname: name === 'postgres' ? '/template1' : '/postgres' });
  const admin = new Client({ connectionString: maintenance.toString(), connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  admin.on('error', () => undefined);
  try {
    await admin.connect();
    await admin.query(`create database ${quoteIdentifier(name)}`);
    return { created: true };
  } catch (error) {
    // Another process started with --create-database at the same moment and made it first.
    if ((error as { code?: string }).code === DUPLICATE_DATABASE) return { created: false };
    throw error;
  } finally {
    await admin.end().catch(() => undefined);
  }
}
