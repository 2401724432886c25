// Run by test/helpers/ts-process.js: the embedded database of src/db/embedded.ts in a process of its
// own (PGlite does not load inside jest's module sandbox), serving the directory given after this
// file's path until SIGTERM. Prints its URL as the first line on stdout.
import { startEmbeddedDatabase } from '../../src/db/embedded';

void (async () => {
  const database = await startEmbeddedDatabase({ dataDir: process.argv[3] });
  process.once('SIGTERM', () => void database.stop().then(() => process.exit(0)));
  process.stdout.write(`${database.url}\n`);
})();
