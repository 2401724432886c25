import { rmSync } from 'node:fs';
import path from 'node:path';
import { adminUrl, databaseName } from './databases';
import { execute } from './sql-admin';

export default async function globalTeardown() {
  for (const { database, dataDir } of globalThis.__EMBEDDED_TEST_DATABASES__ ?? []) {
    await database.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const template = process.env.TEST_TEMPLATE_URL;
  if (template) await execute(adminUrl(template), `drop database if exists "${databaseName(template)}" with (force)`);
  const document = process.env.TEST_OPENAPI_FILE;
  if (document) rmSync(path.dirname(document), { recursive: true, force: true });
}
