import { MikroORM } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { migrate } from '../../src/db/migrate';

/** Statements one after another on a connection of their own: CREATE/DROP/ALTER DATABASE for the test databases. */
export async function execute(url: string, ...statements: string[]): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    for (const sql of statements) await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Jest's global setup runs outside the test files' realm: loading entity decorators there
 * corrupts MikroORM's metadata for in-band test files. So the migrations run on an ORM with no
 * entities (src/db/migrate.ts loads the migration classes only when one is pending).
 */
export async function migrateDatabase(url: string): Promise<void> {
  const orm = await MikroORM.init({
    clientUrl: url,
    entities: [],
    discovery: { warnWhenNoEntities: false },
    pool: { min: 0, max: 1 },
    migrations: { transactional: true, allOrNothing: true, snapshot: false, silent: true },
  });
  try {
    await migrate(orm);
  } finally {
    await orm.close(true);
  }
}
