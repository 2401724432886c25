import { randomBytes } from 'node:crypto';
import { execute } from './sql-admin';

/** The server's maintenance database, for CREATE/DROP DATABASE. */
export const adminUrl = (url: string) => withDatabase(url, 'postgres');

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export const databaseName = (url: string) => new URL(url).pathname.slice(1);

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A database of this test file's own: a copy of the migrated template, or its worker's embedded one. */
export async function createTestDatabase(options: { synchronousCommit?: boolean } = {}): Promise<TestDatabase> {
  const template = process.env.TEST_TEMPLATE_URL;
  if (!template) {
    const urls = process.env.TEST_EMBEDDED_URLS?.split(' ');
    if (!urls) throw new Error('Run the tests through jest (global setup prepares the database).');
    // The embedded database of this jest worker (JEST_WORKER_ID counts from 1).
    return { url: urls[(Number(process.env.JEST_WORKER_ID ?? 1) - 1) % urls.length], drop: async () => {} };
  }
  const name = `flags_test_${randomBytes(6).toString('hex')}`;
  // PostgreSQL 15's FILE_COPY strategy creates a copy five times faster when
  // idle, but its checkpoint per copy made the whole suite slower under the files' concurrent writes.
  const create = `create database "${name}" template "${databaseName(template)}"`;
  // A test database need not wait for its WAL to reach the disk at every commit: what a commit makes
  // visible is unchanged, and a crash of the server only loses the last moments of a scratch database.
  // (Tests of query plans keep it: VACUUM marks pages all-visible only once their WAL is on disk.)
  const asynchronous = `alter database "${name}" set synchronous_commit = off`;
  await execute(adminUrl(template), ...(options.synchronousCommit ? [create] : [create, asynchronous]));
  return {
    url: withDatabase(template, name),
    drop: () => execute(adminUrl(template), `drop database if exists "${name}" with (force)`).then(() => undefined),
  };
}
