import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * Typed documents for the console from the committed SDL (schema/schema.graphql): `npm run
 * console:codegen` writes web/src/gql; test/console/codegen.test.ts fails when they are stale.
 */
const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  documents: ['web/src/**/*.tsx', 'web/src/**/*.ts', '!web/src/gql/**/*'],
  generates: {
    'web/src/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        enumsAsTypes: true,
        useTypeImports: true,
        scalars: {
          DateTime: 'string',
          ExperimentDateTime: 'string',
          EventTimestamp: 'string',
          JSON: 'unknown',
          JSONObject: 'Record<string, unknown>',
        },
      },
    },
  },
  ignoreNoDocuments: true,
};

export default config;
