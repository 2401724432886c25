import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../../src/db/embedded';
import { adminUrl, withDatabase } from './databases';
import { execute, migrateDatabase } from './sql-admin';

declare global {
  var __EMBEDDED_TEST_DATABASES__: { database: EmbeddedDatabase; dataDir: string }[] | undefined;
}

/**
 * With DATABASE_URL: migrate a template database once; each test file then gets its own copy
 * (test/helpers/databases.ts), so files run in parallel. Without it: one embedded PostgreSQL
 * per jest worker (PGlite cannot start inside a CommonJS test file); a worker's files run one at
 * a time and share its database, keeping apart by creating their own organizations.
 */
export default async function globalSetup(globalConfig: { maxWorkers: number }) {
  let urls: string[];
  if (process.env.DATABASE_URL) {
    const template = `flags_test_template_${process.pid}`;
    await execute(adminUrl(process.env.DATABASE_URL), `drop database if exists "${template}" with (force)`);
    await execute(adminUrl(process.env.DATABASE_URL), `create database "${template}"`);
    urls = [withDatabase(process.env.DATABASE_URL, template)];
    process.env.TEST_TEMPLATE_URL = urls[0];
  } else {
    const embedded = await Promise.all(
      Array.from({ length: globalConfig.maxWorkers }, async () => {
        const dataDir = mkdtempSync(path.join(tmpdir(), 'flags-test-'));
        return { database: await startEmbeddedDatabase({ dataDir }), dataDir };
      }),
    );
    globalThis.__EMBEDDED_TEST_DATABASES__ = embedded;
    urls = embedded.map(({ database }) => database.url);
    process.env.TEST_EMBEDDED_URLS = urls.join(' ');
  }
  // The OpenAPI document the response checks read, generated once (not once per file) beside the migrations.
  const document = path.join(mkdtempSync(path.join(tmpdir(), 'flags-openapi-')), 'openapi.json');
  process.env.TEST_OPENAPI_FILE = document;
  await Promise.all([
    ...urls.map((url) => migrateDatabase(url)),
    promisify(execFile)(process.execPath, [path.join(__dirname, 'ts-process.js'), path.join(__dirname, 'write-openapi.ts'), document]),
  ]);
  // Jest runs files in this process when there is one worker, and MikroORM keeps its decorator
  // metadata on globalThis: what setup left there must not leak into the first test file.
  delete (globalThis as Record<string, unknown>)['mikro-orm-metadata'];
}
