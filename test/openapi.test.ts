import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { parse as parseYaml } from 'yaml';
import { buildAppSchema } from '../src/graphql/schema';
import { buildOpenApiDocument, openApiPath } from '../src/openapi/document';
import { OPENAPI_FILE, printOpenApi } from '../src/openapi/emit-openapi';
import { openApiDocument } from '../src/openapi/serve';
import { handlerRoute, projectScope, type Route } from '../src/rest/route';
import { endpoints, routes } from '../src/rest/routes';
import { parseMetric, type Metric } from '../src/modules/experiment/results/metric';
import { funnelResult, trendResult, type ShapeInput } from '../src/modules/experiment/results/results.shape';
import { checkResponse, contractProblem } from './helpers/openapi-contract';
import { startTestApp, type TestApp } from './helpers/test-app';

type Json = Record<string, any>;
const JSON_TYPE = 'application/json; charset=utf-8';

describe('the OpenAPI document', () => {
  let document: Json;
  beforeAll(async () => {
    document = openApiDocument(await buildAppSchema(), routes, endpoints);
  });

  it('is committed exactly as the code generates it (run `npm run openapi:emit` after changing routes or types)', async () => {
    expect(await printOpenApi()).toBe(readFileSync(OPENAPI_FILE, 'utf8'));
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
    expect(document.openapi).toBe('3.1.0');
  });

  it('has an operation for every served row of the route table, with its scope', () => {
    for (const route of routes) {
      const operation = document.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
      if (route.kind === 'not_allowed') {
        expect({ row: `${route.method} ${route.path}`, documented: Boolean(operation) }).toEqual({
          row: `${route.method} ${route.path}`,
          documented: false,
        });
        continue;
      }
      expect({ row: `${route.method} ${route.path}`, documented: Boolean(operation) }).toEqual({
        row: `${route.method} ${route.path}`,
        documented: true,
      });
      expect(operation.security).toEqual(route.auth.security ?? [{ PersonalApiKey: [] }]);
      for (const name of route.path.match(/:[a-z_]+/g) ?? []) {
        expect(operation.parameters.find((p: Json) => p.in === 'path' && p.name === name.slice(1))).toBeTruthy();
      }
    }
  });

  it('declares the error body, the list envelope and the bearer schemes', () => {
    const flags = document.paths['/api/projects/{project_id}/feature_flags'];
    expect(flags.get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/PaginatedFeatureFlagList',
    });
    expect(document.components.schemas.PaginatedFeatureFlagList.required).toEqual(['count', 'next', 'previous', 'results']);
    expect(flags.post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/FeatureFlagCreateInput' });
    expect(Object.keys(document.components.schemas.FeatureFlagCreateInput.properties)).toContain('ensure_experience_continuity');
    expect(flags.post.responses['401']).toEqual({ $ref: '#/components/responses/Unauthorized' });
    expect(document.components.schemas.Error.required).toEqual(['type', 'code', 'detail', 'attr']);
    expect(document.components.securitySchemes.PersonalApiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(flags.get.parameters.map((p: Json) => p.name)).toEqual(
      expect.arrayContaining(['project_id', 'limit', 'offset', 'search', 'tags']),
    );
  });

  it('documents a row it cannot read a body from with an open schema, and takes what a row attaches', async () => {
    const rows: Route[] = [
      handlerRoute({
        method: 'GET',
        path: '/api/projects/:project_id/things',
        auth: projectScope('feature_flag:read'),
        handle: async () => undefined,
      }),
      handlerRoute({
        method: 'POST',
        path: '/api/projects/:project_id/things',
        auth: { ...projectScope('feature_flag:write'), security: [] },
        handle: async () => undefined,
        docs: {
          status: 202,
          response: { type: 'object', properties: { queued: { type: 'boolean' } } },
          query: { dry_run: { schema: { type: 'boolean' } } },
        },
      }),
    ];
    const generated = buildOpenApiDocument({ schema: await buildAppSchema(), routes: rows, outside: [], version: '0' }) as Json;
    const things = generated.paths['/api/projects/{project_id}/things'];
    expect(things.get.responses['200'].content['application/json'].schema).toEqual({ description: 'Not described yet: any JSON value.' });
    expect(things.get.security).toEqual([{ PersonalApiKey: ['feature_flag:read'] }]);
    expect(things.post.responses['202'].content['application/json'].schema.properties.queued).toEqual({ type: 'boolean' });
    expect(things.post.security).toEqual([]);
    expect(things.post.responses['401']).toBeUndefined();
    expect(things.post.parameters.map((p: Json) => p.name)).toEqual(['project_id', 'dry_run']);
  });

  it('describes every served answer and body: only the GraphQL endpoint is open (schema/schema.graphql describes it)', () => {
    const open: string[] = [];
    const isOpen = (schema: Json) =>
      JSON.stringify(schema).includes('Not described yet') ||
      Object.keys(schema).every((k) => k === 'description') ||
      (schema.type === 'object' && !schema.properties && !schema.additionalProperties && !schema.required);
    for (const [path, operations] of Object.entries(document.paths as Record<string, Json>)) {
      for (const [method, operation] of Object.entries(operations as Record<string, Json>)) {
        const contents = [
          ...Object.values(operation.responses as Json).map((r: Json) => r.content ?? {}),
          operation.requestBody?.content ?? {},
        ];
        for (const content of contents) {
          const schema = content['application/json']?.schema;
          if (schema && isOpen(schema)) open.push(`${method.toUpperCase()} ${path}`);
        }
      }
    }
    expect([...new Set(open)]).toEqual(['POST /graphql', 'GET /graphql']);
  });

  it('takes the query parameters a row really reads over its GraphQL variables', () => {
    const secondary = document.paths['/api/projects/{project_id}/experiments/{id}/secondary_results'].get;
    expect(secondary.parameters.map((p: Json) => `${p.in}:${p.name}${p.required ? '!' : ''}`)).toEqual([
      'path:project_id!',
      'path:id!',
      'query:refresh',
      'query:id!',
    ]);
    const requires = document.paths['/api/projects/{project_id}/experiments/requires_flag_implementation'].get;
    // Malformed `events` counts as an empty list: nothing there is refused.
    expect(requires.responses['400']).toBeUndefined();
  });

  it('describes experiment results as their builders make them, and refuses anything else', async () => {
    const variants = [
      { key: 'control', rollout: 50 },
      { key: 'test', rollout: 50 },
    ];
    const start = new Date('2026-03-01T00:00:00Z');
    const input = (filters: Record<string, unknown>): ShapeInput => ({
      filters,
      flagKey: 'f',
      variants,
      start,
      end: new Date('2026-03-03T12:00:00Z'),
    });
    const answer = (result: unknown) => JSON.stringify({ result, last_refresh: '2026-03-03T12:00:00.000Z', is_cached: false });
    const url = '/api/projects/1/experiments/2/results/';
    const exposures = new Map([
      ['control', 120],
      ['test', 130],
    ]);

    const funnelFilters = {
      insight: 'FUNNELS',
      events: [
        { id: 'a', order: 0 },
        { id: 'b', order: 1, custom_name: 'B' },
      ],
    };
    const funnel = funnelResult(
      input(funnelFilters),
      parseMetric(funnelFilters) as Extract<Metric, { kind: 'funnel' }>,
      [
        { variant: 'control', furthest: 1, actors: 80 },
        { variant: 'control', furthest: 2, actors: 40 },
        { variant: 'test', furthest: 2, actors: 70 },
        { variant: 'test', furthest: 1, actors: 60 },
      ],
      exposures,
    );
    await checkResponse('GET', url, 200, JSON_TYPE, answer(funnel));

    for (const math of [undefined, 'dau', 'sum']) {
      const trendFilters = { events: [{ id: 'buy', order: 0, ...(math ? { math, math_property: 'amount' } : {}) }] };
      const rows = {
        days: [
          { variant: 'control', day: '2026-03-01', events: 3, sum: 7.5 },
          { variant: 'test', day: '2026-03-02', events: 5, sum: 2 },
        ],
        firsts: [
          { variant: 'control', day: '2026-03-01', actors: 2 },
          { variant: 'test', day: '2026-03-02', actors: 4 },
        ],
        allEvents: 9,
      };
      const trend = trendResult(
        input(trendFilters),
        parseMetric(trendFilters) as Extract<Metric, { kind: 'trend' }>,
        rows,
        exposures,
        exposures,
      );
      await checkResponse('GET', url, 200, JSON_TYPE, answer(trend));
    }

    const refused = (result: unknown) =>
      expect(checkResponse('GET', url, 200, JSON_TYPE, answer(result))).rejects.toThrow(/does not match/);
    await refused({ ...funnel, significance_code: 'high_p_value' });
    await refused({ ...funnel, p_value: 0.5 });
    await refused({ ...funnel, variants: [{ key: 'control', success_count: '1', failure_count: 0 }] });
    await refused({ ...funnel, filters: { ...(funnel.filters as object), insight: 'TRENDS' } });
    const secondary = '/api/projects/1/experiments/2/secondary_results/?id=0';
    await checkResponse('GET', secondary, 200, JSON_TYPE, answer({ control: 0.25, test: 3 }));
    await expect(checkResponse('GET', secondary, 200, JSON_TYPE, answer({ control: 'many' }))).rejects.toThrow(/does not match/);
  });

  describe('the response-validation hook', () => {
    it('refuses an undeclared status and a body off its schema, and leaves undocumented paths alone', async () => {
      expect(await contractProblem('GET', '/api/projects/1/feature_flags/', 418, null, '', '')).toMatch(
        /answered 418, which the OpenAPI document does not declare/,
      );
      const wrong = { count: '1', next: null, previous: null, results: [] };
      expect(await contractProblem('GET', '/api/projects/1/feature_flags?limit=1', 200, JSON_TYPE, JSON.stringify(wrong), wrong)).toMatch(
        /\/count must be integer/,
      );
      const error = { type: 'validation_error', code: 'x', detail: 'y', attr: null };
      expect(await contractProblem('GET', '/api/projects/1/feature_flags/1', 404, JSON_TYPE, JSON.stringify(error), error)).toMatch(
        /must be equal to one of the allowed values/,
      );
      expect(await contractProblem('DELETE', '/api/projects/1/feature_flags/1', 405, JSON_TYPE, '{}', {})).toMatch(/declares none/);
      expect(await contractProblem('GET', '/api/nothing-here', 404, null, '', '')).toBeNull();
      expect(await contractProblem('PATCH', '/api/projects/1/experiments', 405, null, '', '')).toBeNull();
    });
  });

  describe('GET /api/schema/', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp();
    });
    afterAll(() => app.close());

    it('serves the document as JSON without a key', async () => {
      for (const path of ['/api/schema/', '/api/schema']) {
        const res = await app.request(path);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(res.body).toEqual(document);
      }
    });

    it('serves it as YAML with ?format=yaml', async () => {
      const res = await app.request('/api/schema/?format=yaml');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/yaml/);
      expect(parseYaml(res.text)).toEqual(document);
    });

    it('answers other methods with 405', async () => {
      const res = await app.request('/api/schema/', { method: 'POST', body: {} });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD');
    });
  });
});
