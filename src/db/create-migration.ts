import 'reflect-metadata';
import { MikroORM } from '@mikro-orm/postgresql';
import { ormConfig } from '../../mikro-orm.config';
import { ensureDatabase } from './ensure-database';
import { migrate } from './migrate';
import { migrationsList } from './migrations';

/**
 * Developer tool: diffs the entities against a database that has every committed migration
 * applied and writes the difference as a new TypeScript migration in src/db/migrations/.
 * Usage: DATABASE_URL=postgresql://…/scratch npm run migration:create (a missing scratch database is created).
 * Then add its name to src/db/migrations/names.ts.
 */
async function main() {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL must name a scratch database.');
  await ensureDatabase(url, { create: true });
  const config = ormConfig(url);
  const orm = await MikroORM.init({
    ...config,
    migrations: { ...config.migrations, migrationsList, path: 'src/db/migrations', emit: 'ts' },
  });
  await migrate(orm);
  const { Migrator } = await import('@mikro-orm/migrations');
  const result = await new Migrator(orm.em).createMigration(undefined, false, false);
  process.stdout.write(`${JSON.stringify({ file: result.fileName || null, statements: result.diff.up.length })}\n`);
  await orm.close(true);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
