/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  setupFiles: ['reflect-metadata'],
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  // Files run in parallel against their own databases on a real server; the embedded
  // database serialises every statement anyway.
  maxWorkers: process.env.DATABASE_URL ? 2 : 1,
  testTimeout: 30000,
};
