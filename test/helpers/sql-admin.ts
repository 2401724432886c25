import { MikroORM } from '@mikro-orm/postgresql';
import { migrationsList } from '../../src/db/migrations';
import { migrate } from '../../src/db/migrate';

/**
 * Jest's global setup runs outside the test files' realm: loading entity decorators there
 * corrupts MikroORM's metadata for in-band test files. So setup and teardown use an ORM with
 * no entities, only for migrations and CREATE/DROP DATABASE.
 */
export async function withAdminOrm<T>(url: string, action: (orm: MikroORM) => Promise<T>): Promise<T> {
  const orm = await MikroORM.init({
    clientUrl: url,
    entities: [],
    discovery: { warnWhenNoEntities: false },
    pool: { min: 0, max: 1 },
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false, silent: true },
  });
  try {
    return await action(orm);
  } finally {
    await orm.close(true);
  }
}

export const execute = (url: string, sql: string) => withAdminOrm(url, (orm) => orm.em.getConnection().execute(sql));
export const migrateDatabase = (url: string) => withAdminOrm(url, migrate);
