import { Migration20261121112332Initial } from './Migration20261121112332Initial';
import { Migration20261121114229Roles } from './Migration20261121114229Roles';
import { Migration20261121115220Experiments } from './Migration20261121115220Experiments';
import { Migration20261121115530Ingestion } from './Migration20261121115530Ingestion';
import { Migration20261123160000DefinitionsNotify } from './Migration20261123160000DefinitionsNotify';

/** Applied in this order at start (the migrator never scans folders). */
export const migrationsList = [
  { name: 'Migration20261121112332Initial', class: Migration20261121112332Initial },
  { name: 'Migration20261121114229Roles', class: Migration20261121114229Roles },
  { name: 'Migration20261121115220Experiments', class: Migration20261121115220Experiments },
  { name: 'Migration20261121115530Ingestion', class: Migration20261121115530Ingestion },
  { name: 'Migration20261123160000DefinitionsNotify', class: Migration20261123160000DefinitionsNotify },
];
