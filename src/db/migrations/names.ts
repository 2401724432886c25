/**
 * The migrations, in the order they apply (the migrator never scans folders). Each is
 * `./<name>.ts` exporting a class of that name; add a new one at the end.
 */
export const migrationNames = [
  'Migration20261121112332Initial',
  'Migration20261121114229Roles',
  'Migration20261121115220Experiments',
  'Migration20261121115530Ingestion',
  'Migration20261123160000DefinitionsNotify',
] as const;
