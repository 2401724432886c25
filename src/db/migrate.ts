import type { MikroORM } from '@mikro-orm/postgresql';

/** Applies pending migrations; loads the migrator only when migrating. Imports no entities. */
export async function migrate(orm: MikroORM): Promise<void> {
  const { Migrator } = await import('@mikro-orm/migrations');
  await new Migrator(orm.em).up();
}
