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
  'Migration20261123190100Activity',
  'Migration20261123190300Cohorts',
  'Migration20261123190200Dashboards',
  'Migration20261123190400ExperimentResults',
  'Migration20261125090000ExperimentFunnelTies',
  'Migration20261127120000DefinitionsChanges',
  'Migration20261128090000FlagLastCalled',
  'Migration20261128090000ScheduledChanges',
  'Migration20261129090000Webhooks',
] as const;
