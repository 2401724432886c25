/**
 * Two projects: `unit` (pure code and checks of the repository's own files: no database, no
 * server; `npm run test:unit` runs it alone in seconds) and `integration` (real HTTP over a real
 * database, prepared once by the global setup).
 * @type {import('jest').Config}
 */
const UNIT = [
  '<rootDir>/test/unit/**/*.test.ts',
  '<rootDir>/test/security/sliding-window.test.ts',
  '<rootDir>/test/schema.test.ts',
  '<rootDir>/test/repository.test.ts',
  '<rootDir>/test/graphql/schema-descriptions.test.ts',
];

const shared = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  runtime: '<rootDir>/test/helpers/jest-runtime.js',
  setupFiles: ['reflect-metadata', '<rootDir>/test/helpers/async-storage-reset.js'],
};

module.exports = {
  projects: [
    { ...shared, displayName: 'unit', testMatch: UNIT },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...UNIT.map((glob) => glob.replace('<rootDir>', '').replace('/**/*.test.ts', '/'))],
      globalSetup: '<rootDir>/test/helpers/global-setup.ts',
      globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
    },
  ],
  // Files run in parallel against their own databases on a real server (most of their time is spent
  // waiting on it and on child processes, so more workers than cores pays). Without one, each worker
  // has an embedded database of its own that its files share one at a time (global-setup.ts): one
  // worker per core, since the workers' databases all run in jest's main process.
  maxWorkers: process.env.DATABASE_URL ? 4 : 2,
  // Long files first even before jest has timed them (files marked `// @slow`).
  testSequencer: '<rootDir>/test/helpers/sequencer.js',
  testTimeout: 30000,
};
