// Bundles test/fixtures/ofrep-web-entry.js for a browser page with Vite (no network needed) and
// writes the script to stdout; test/browser/ofrep-web.test.ts runs it in a child process, since Vite is ESM only.
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('../..', import.meta.url));
const output = await build({
  configFile: false,
  root,
  logLevel: 'silent',
  build: {
    write: false,
    minify: false,
    lib: { entry: fileURLToPath(new URL('../fixtures/ofrep-web-entry.js', import.meta.url)), formats: ['iife'], name: 'ofrepWeb' },
  },
});
const chunks = (Array.isArray(output) ? output : [output]).flatMap((result) => result.output);
process.stdout.write(chunks.find((chunk) => chunk.type === 'chunk').code);
