import type { MigrationObject } from '@mikro-orm/core';
import { migrationNames } from './names';

/**
 * The migration classes, loaded only when something migrates: they pull in the migrator
 * (@mikro-orm/migrations), which a start on an up-to-date database never needs.
 */
export const migrationsList: MigrationObject[] = migrationNames.map((name) => ({
  name,
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  class: require(`./${name}`)[name],
}));
