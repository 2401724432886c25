import { spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * The console's typed documents (web/src/gql) are generated from the committed SDL and the
 * documents in web/src: when either changed and `npm run console:codegen` was not run, this fails.
 */
it("the console's generated GraphQL types match the committed schema and documents", () => {
  const root = path.resolve(__dirname, '../..');
  const run = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/@graphql-codegen/cli/cjs/bin.js'), '--config', 'web/codegen.ts', '--check'],
    {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  expect({ status: run.status, output: run.status === 0 ? '' : `${run.stdout}${run.stderr}` }).toEqual({ status: 0, output: '' });
}, 90_000);
