import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildAppSchema } from '../graphql/schema';
import { endpoints, routes } from '../rest/routes';
import { openApiDocument } from './serve';

/** Writes the OpenAPI artefact: `npm run openapi:emit`. A test fails when it drifts from the code. */
export const OPENAPI_FILE = path.resolve(
  __dirname,
  '..',
  '..',
  ...(__dirname.includes(`${path.sep}dist${path.sep}`) ? ['..'] : []),
  'schema',
  'openapi.json',
);

export async function printOpenApi(): Promise<string> {
  return `${JSON.stringify(openApiDocument(await buildAppSchema(), routes, endpoints), null, 2)}\n`;
}

if (require.main === module) {
  void printOpenApi().then((text) => {
    writeFileSync(OPENAPI_FILE, text);
    process.stdout.write(`${JSON.stringify({ written: OPENAPI_FILE })}\n`);
  });
}
