import { Migration20261121112332Initial } from './Migration20261121112332Initial';
import { Migration20261121114229Roles } from './Migration20261121114229Roles';

/** Applied in this order at start (the migrator never scans folders). */
export const migrationsList = [
  { name: 'Migration20261121112332Initial', class: Migration20261121112332Initial },
  { name: 'Migration20261121114229Roles', class: Migration20261121114229Roles },
];
