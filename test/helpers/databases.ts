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

/** A database of this test file's own: a copy of the migrated template, or the shared embedded one. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = process.env.TEST_TEMPLATE_URL;
  if (!template) {
    const url = process.env.TEST_EMBEDDED_URL;
    if (!url) throw new Error('Run the tests through jest (global setup prepares the database).');
    return { url, drop: async () => {} };
  }
  const name = `flags_test_${randomBytes(6).toString('hex')}`;
  await execute(adminUrl(template), `create database "${name}" template "${databaseName(template)}"`);
  return {
    url: withDatabase(template, name),
    drop: () => execute(adminUrl(template), `drop database if exists "${name}" with (force)`).then(() => undefined),
  };
}
