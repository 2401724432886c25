import { readFileSync } from 'node:fs';
import { printAppSchema, SCHEMA_FILE } from '../src/graphql/emit-schema';

describe('the committed GraphQL schema', () => {
  it('is exactly what the code builds (run `npm run schema:emit` after changing types)', async () => {
    expect(await printAppSchema()).toBe(readFileSync(SCHEMA_FILE, 'utf8'));
  });
});
