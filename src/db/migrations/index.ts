import { Migration20261121112332Initial } from './Migration20261121112332Initial';

/** Applied in this order at start (the migrator never scans folders). */
export const migrationsList = [{ name: 'Migration20261121112332Initial', class: Migration20261121112332Initial }];
