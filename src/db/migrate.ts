import type { MikroORM } from '@mikro-orm/postgresql';
import { installJobSchema } from '../jobs/job-engine';
import { migrationNames } from './migrations/names';

/** The migrations table's names; none before the first migration. */
async function appliedMigrations(orm: MikroORM): Promise<Set<string>> {
  const rows = (await orm.em
    .getConnection()
    .execute('select name from mikro_orm_migrations')
    .catch(() => [])) as Array<{ name: string }>;
  return new Set(rows.map((row) => row.name));
}

/**
 * Applies pending migrations, then installs or upgrades the job engine's own schema and queues
 * (pg-boss's, src/jobs/job-engine.ts). The MikroORM part of an up-to-date database costs one query: the migrator and the
 * migration classes are loaded only when something is pending. Imports no entities.
 */
export async function migrate(orm: MikroORM): Promise<void> {
  await migrateEntities(orm);
  await installJobSchema(orm);
}

async function migrateEntities(orm: MikroORM): Promise<void> {
  const applied = await appliedMigrations(orm);
  if (migrationNames.every((name) => applied.has(name))) return;
  const { Migrator } = await import('@mikro-orm/migrations');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { migrationsList } = require('./migrations') as typeof import('./migrations');
  orm.config.set('migrations', { ...orm.config.get('migrations'), migrationsList });
  await new Migrator(orm.em).up();
}
