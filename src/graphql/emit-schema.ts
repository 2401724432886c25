import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { printSchema } from 'graphql';
import { buildPublicSchema } from './schema';

/** Writes the SDL artefact: `npm run schema:emit`. A test fails when it drifts from the code. */
export const SCHEMA_FILE = path.resolve(
  __dirname,
  '..',
  '..',
  ...(__dirname.includes(`${path.sep}dist${path.sep}`) ? ['..'] : []),
  'schema',
  'schema.graphql',
);

export async function printAppSchema(): Promise<string> {
  return `${printSchema(await buildPublicSchema())}\n`;
}

if (require.main === module) {
  void printAppSchema().then((sdl) => {
    writeFileSync(SCHEMA_FILE, sdl);
    process.stdout.write(`${JSON.stringify({ written: SCHEMA_FILE })}\n`);
  });
}
