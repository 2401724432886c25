'use strict';
/**
 * Generates TypeScript for a GraphQL client with graphql-codegen (typescript-operations, which since
 * its version 6 also writes the input and enum types the operations use, and typed-document-node): `node graphql-codegen.js <schema.graphql> <operations.graphql> <out.ts>`.
 * A process of its own: the plugins load ESM-only dependencies, which Node requires natively but
 * Jest's module loader cannot.
 */
const { readFileSync, writeFileSync } = require('node:fs');
const { parse } = require('graphql');
const { codegen } = require('@graphql-codegen/core');
const typescriptOperations = require('@graphql-codegen/typescript-operations');
const typedDocumentNode = require('@graphql-codegen/typed-document-node');

const [schemaFile, operationsFile, outFile] = process.argv.slice(2);
codegen({
  filename: outFile,
  schema: parse(readFileSync(schemaFile, 'utf8')),
  documents: [{ document: parse(readFileSync(operationsFile, 'utf8')), location: operationsFile }],
  config: { useTypeImports: true },
  plugins: [{ typescriptOperations: {} }, { typedDocumentNode: {} }],
  pluginMap: { typescriptOperations, typedDocumentNode },
}).then(
  (output) => writeFileSync(outFile, output),
  (error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exit(1);
  },
);
