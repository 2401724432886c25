import { writeFileSync } from 'node:fs';
import { printOpenApi } from '../../src/openapi/emit-openapi';

// Run by the global setup through ts-process.js: the OpenAPI document the code generates now,
// written once for every test file's response checks (openapi-contract.ts).
void printOpenApi().then((text) => writeFileSync(process.argv[3], text));
