import { serverAudits, type AuditResult } from 'graphql-http';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * The GraphQL-over-HTTP spec, as the `graphql-http` package audits a server, run against the real
 * /graphql. Every MUST passes. Of the SHOULDs, the three below are deliberate (docs/graphql.md):
 * with `Accept: application/json`, the spec would answer a document that does not parse or
 * validate, or variables that do not coerce, with 200; this service answers 400 whatever the
 * media type, as its REST API and its request limits do (test/security/graphql-limits.test.ts).
 * Clients asking for application/graphql-response+json get exactly what the spec requires.
 */
const KNOWN_SHOULD_DEVIATIONS: Record<string, string> = {
  '572B': 'SHOULD use 200 status code on document parsing failure when accepting application/json',
  FDE2: 'SHOULD use 200 status code on document validation failure when accepting application/json',
  '7B9B': 'SHOULD use a status code of 200 on variable coercion failure when accepting application/json',
};

let app: TestApp;
let results: AuditResult[];

beforeAll(async () => {
  app = await startTestApp();
  results = [];
  for (const audit of serverAudits({ url: () => `${app.baseUrl}/graphql` })) results.push(await audit.fn());
}, 60_000);
afterAll(() => app.close());

const describeFailure = (result: AuditResult) => `${result.id} ${result.name}: ${result.status === 'ok' ? '' : result.reason}`;

it('runs the whole audit', () => {
  expect(results.length).toBeGreaterThan(40);
});

it('passes every MUST', () => {
  const failed = results.filter((result) => result.name.startsWith('MUST') && result.status !== 'ok').map(describeFailure);
  expect(failed).toEqual([]);
  expect(results.filter((result) => result.name.startsWith('MUST')).length).toBeGreaterThanOrEqual(13);
});

it('passes every SHOULD and MAY except the deviations docs/graphql.md lists', () => {
  const failed = Object.fromEntries(results.filter((result) => result.status !== 'ok').map((result) => [result.id, result.name]));
  expect(failed).toEqual(KNOWN_SHOULD_DEVIATIONS);
});

it('answers the deviations with the 400 and the formatted errors of this service', async () => {
  const parse = await app.request('/graphql', { method: 'POST', headers: { accept: 'application/json' }, body: { query: '{' } });
  expect(parse.status).toBe(400);
  expect(parse.headers.get('content-type')).toMatch(/^application\/json/);
  expect(parse.body.errors[0].extensions).toEqual({
    code: 'BAD_USER_INPUT',
    type: 'validation_error',
    reason: 'graphql_parse_failed',
    attr: null,
  });
  const modern = await app.request('/graphql', {
    method: 'POST',
    headers: { accept: 'application/graphql-response+json' },
    body: { query: '{ nope }' },
  });
  expect(modern.status).toBe(400);
  expect(modern.headers.get('content-type')).toMatch(/^application\/graphql-response\+json/);
  expect(modern.body.errors[0].extensions.reason).toBe('graphql_validation_failed');
});
