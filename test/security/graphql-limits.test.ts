import { getIntrospectionQuery } from 'graphql';
import type { World } from '../helpers/factories';
import { startTestApp, type ApiResponse, type TestApp } from '../helpers/test-app';
import { expectRefused } from '../helpers/graphql-refusal';

/**
 * Regressions of the reliability issue: one GraphQL document could cost the process its heap
 * (`Experiment.featureFlag` ↔ `FeatureFlag.experiments` had no depth or cost limit), stall it for
 * seconds without a key (12,000 aliased introspection fields) or exhaust the pool (1,000 aliased
 * 1,000-flag pages). Every refusal is a 400 with extensions.code BAD_USER_INPUT.
 */
let app: TestApp;
let world: World;
let projectId: string;
let flagId: number;

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  projectId = String(world.project.id);
  const base = `/api/projects/${projectId}`;
  const filters = { events: [{ order: 0, id: '$pageview' }], properties: [] };
  // Two experiments sharing one flag: a loop (flag → experiments → flag) a query can follow as deep as it nests.
  for (const name of ['Loop A', 'Loop B']) {
    const res = await app.request(`${base}/experiments/`, {
      method: 'POST',
      key: world.owner.key,
      body: { name, feature_flag_key: 'loop-flag', filters },
    });
    expect(res.status).toBe(201);
    flagId = res.body.feature_flag.id;
  }
});
afterAll(() => app.close());

describe('schema tooling still works', () => {
  it.each([
    ['the standard introspection query', getIntrospectionQuery()],
    [
      'the introspection query with every option',
      getIntrospectionQuery({
        descriptions: true,
        specifiedByUrl: true,
        directiveIsRepeatable: true,
        schemaDescription: true,
        inputValueDeprecation: true,
        oneOf: true,
      }),
    ],
  ])('answers %s without a key', async (_label, query) => {
    const res = await app.graphql(query, undefined, null);
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect((res.body.data as any).__schema.types.length).toBeGreaterThan(20);
  });

  it('serves a flag with its experiments and their flag (one turn of the loop)', async () => {
    const res = await app.graphql(
      `query($p: ID!) { featureFlags(projectId: $p, limit: 1000) { results { key experiments { name featureFlag { key } } } } }`,
      { p: projectId },
      world.owner.key,
    );
    expect(res.status).toBe(200);
    const flag = (res.body.data as any).featureFlags.results.find((f: any) => f.key === 'loop-flag');
    expect(flag.experiments).toEqual([
      { name: 'Loop A', featureFlag: { key: 'loop-flag' } },
      { name: 'Loop B', featureFlag: { key: 'loop-flag' } },
    ]);
  });
});

describe('depth, loops and cost', () => {
  const loop = (turns: number) =>
    `{ featureFlags(projectId: "${projectId}") { results { id ${'experiments { id featureFlag { id '.repeat(turns)}${'} } '.repeat(turns)}} } }`;

  it('regression: refuses Experiment.featureFlag ↔ FeatureFlag.experiments nested (the 274-byte heap exhaustion)', async () => {
    for (const turns of [2, 6]) {
      const started = Date.now();
      const res = await app.graphql(loop(turns), undefined, world.owner.key);
      expectRefused(res, /^The list field "FeatureFlag\.experiments" is selected inside itself/, 'graphql_validation_failed');
      expect(Date.now() - started).toBeLessThan(5_000);
    }
    expect((await app.request('/_health')).status).toBe(200);
  });

  it('refuses the same loop reached through a fragment, and from the experiment side', async () => {
    const viaFragment = `query($p: ID!) { featureFlag(projectId: $p, id: ${flagId}) { ...F } }
      fragment F on FeatureFlag { experiments { featureFlag { ...G } } }
      fragment G on FeatureFlag { experiments { id } }`;
    expectRefused(
      await app.graphql(viaFragment, { p: projectId }, world.owner.key),
      /"FeatureFlag\.experiments" is selected inside itself/,
      'graphql_validation_failed',
    );
    const fromExperiments = `query($p: ID!) { experiments(projectId: $p) { results { featureFlag { experiments { featureFlag { experiments { id } } } } } } }`;
    expectRefused(
      await app.graphql(fromExperiments, { p: projectId }, world.owner.key),
      /"FeatureFlag\.experiments" is selected inside itself/,
      'graphql_validation_failed',
    );
  });

  it('holds anonymous introspection to the same rules: no list inside itself, depth at most 20', async () => {
    const hops = `{ __schema { types { fields { type { ofType { ofType { ofType { fields { name } } } } } } } } }`;
    expectRefused(await app.graphql(hops, undefined, null), /"__Type\.fields" is selected inside itself/, 'graphql_validation_failed');
    const deep = `{ __type(name: "FeatureFlag") { ${'ofType { '.repeat(20)}name${' }'.repeat(20)} } }`;
    expectRefused(await app.graphql(deep, undefined, null), /^Query depth limit of 20 exceeded, found 22\.$/, 'graphql_validation_failed');
  });

  it('regression: counts a list by its limit argument (1,000 aliases of a 1,000-flag page exhausted the pool)', async () => {
    const pages = (n: number, limit: string, selection: string) =>
      `query($p: ID!${limit === '$l' ? ', $l: Int' : ''}) { ${Array.from({ length: n }, (_, i) => `a${i}: featureFlags(projectId: $p, limit: ${limit}) { results { ${selection} } }`).join(' ')} }`;
    const members = 'id roleAccess { role { members { user { id } } } }';
    // 1000 flags × (1 + 10 role accesses × (1 + role (1 + 10 members × (membership + user)))) ≈ 221,000 objects.
    const big = await app.graphql(pages(1, '$l', members), { p: projectId, l: 1000 }, world.owner.key);
    expectRefused(big, /^Query cost limit of 50000 exceeded, estimated 221001;/, 'graphql_validation_failed');
    const small = await app.graphql(pages(1, '$l', members), { p: projectId, l: 10 }, world.owner.key);
    expect(small.status).toBe(200);
    expect(small.body.errors).toBeUndefined();
    // Without a limit a page counts 100 items: three such pages pass, three of 1,000 do not.
    const roles = 'id roleAccess { role { id } }';
    expect((await app.graphql(pages(3, '$l', roles), { p: projectId }, world.owner.key)).status).toBe(200);
    expectRefused(
      await app.graphql(pages(3, '1000', roles), { p: projectId }, world.owner.key),
      /^Query cost limit of 50000 exceeded, estimated 63003;/,
      'graphql_validation_failed',
    );
    // A flood of 1,000 such aliases is refused before it is even parsed in full.
    const flood = `query($p: ID!) { ${Array.from({ length: 1000 }, (_, i) => `a${i}: featureFlags(projectId: $p, limit: 1000) { results { id } }`).join(' ')} }`;
    const started = Date.now();
    expectRefused(
      await app.graphql(flood, { p: projectId }, world.owner.key),
      /^Syntax Error: Document contains more tha[nt] 1000 tokens\. Parsing aborted\.$/,
      'graphql_parse_failed',
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('aliases, size, tokens and nesting', () => {
  it('refuses more than 30 aliases, even of introspection and without a key', async () => {
    const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: __schema { queryType { name } }`).join(' ')} }`;
    expect((await app.graphql(aliases(30), undefined, null)).status).toBe(200);
    expectRefused(
      await app.graphql(aliases(31), undefined, null),
      /^Aliases limit of 30 exceeded, found 31\.$/,
      'graphql_validation_failed',
    );
  });

  it('regression: refuses 12,000 aliased introspection fields (949 KB, no key) at once', async () => {
    const query = `{ ${Array.from({ length: 12_000 }, (_, i) => `alias${i}: __schema { queryType { name } description }`).join(' ')} }`;
    expect(query.length).toBeGreaterThan(500_000);
    const started = Date.now();
    const res = await app.graphql(query, undefined, null);
    expectRefused(res, /^Syntax Error: Document contains more than 100000 characters\.$/, 'graphql_parse_failed');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(res.text.length).toBeLessThan(1_000);
  });

  it('refuses a document of more than 1000 tokens', async () => {
    const typenames = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `t${i}: __typename`).join(' ')} }`;
    expect((await app.graphql(typenames(330), undefined, null)).status).toBe(200);
    expectRefused(
      await app.graphql(typenames(334), undefined, null),
      /^Syntax Error: Document contains more tha[nt] 1000 tokens\. Parsing aborted\.$/,
      'graphql_parse_failed',
    );
  });

  it('refuses a field repeated in one selection set, which validation compares pair by pair (a second per request)', async () => {
    const started = Date.now();
    const copies = `{ ${'featureFlag(projectId: "1") { id } '.repeat(110)}}`;
    expectRefused(
      await app.graphql(copies, undefined, null),
      /^Field "featureFlag" is selected more than once in one selection set;/,
      'graphql_validation_failed',
    );
    const leaves = `{ me { user { ${'id '.repeat(990)}} } }`;
    expectRefused(await app.graphql(leaves, undefined, null), /^Field "id" is selected more than once/, 'graphql_validation_failed');
    expect(Date.now() - started).toBeLessThan(5_000);
    // Inline fragments count; named fragments, aliases and a few repeated leaves do not.
    const inline = `query($p: ID!) { featureFlags(projectId: $p) { count ... on FeatureFlagPage { results { id } } results { key } } }`;
    expectRefused(
      await app.graphql(inline, { p: projectId }, world.owner.key),
      /^Field "results" is selected more than once/,
      'graphql_validation_failed',
    );
    const fine = `query($p: ID!) { featureFlags(projectId: $p) { count count ...R } other: featureFlags(projectId: $p) { count } }
      fragment R on FeatureFlagPage { results { id key id } }`;
    const res = await app.graphql(fine, { p: projectId }, world.owner.key);
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
  });

  it('regression: a query nested 5,000 braces deep answered "Maximum call stack size exceeded"', async () => {
    const braces = `{ ${'me { '.repeat(5000)}id${' }'.repeat(5000)} }`;
    const lists = `{ featureFlags(projectId: "1", tags: ${'['.repeat(5000)}"x"${']'.repeat(5000)}) { count } }`;
    for (const query of [braces, lists]) {
      const res = await app.graphql(query, undefined, null);
      expectRefused(res, /^Syntax Error: Document nests brackets more than 100 levels deep\.$/, 'graphql_parse_failed');
    }
    // The same over GET, and brackets inside strings and comments do not count.
    const get = await app.request(`/graphql?query=${encodeURIComponent(`{ ${'me { '.repeat(101)}id${' }'.repeat(101)} }`)}`);
    expectRefused(get as ApiResponse<any>, /nests brackets more than 100 levels/, 'graphql_parse_failed');
    const quoted = await app.graphql(`{ __type(name: "${'{['.repeat(200)}") { name } # ${'('.repeat(200)}\n }`, undefined, null);
    expect(quoted.status).toBe(200);
    expect(quoted.body.data).toEqual({ __type: null });
  });
});

describe('NUL in arguments', () => {
  const cases: Array<[string, string, Record<string, unknown>, string]> = [
    ['featureFlag(key)', 'query($p: ID!, $v: String) { featureFlag(projectId: $p, key: $v) { id } }', { v: 'a\u0000b' }, 'key'],
    [
      'featureFlags(search)',
      'query($p: ID!, $v: String) { featureFlags(projectId: $p, search: $v) { count } }',
      { v: 'a\u0000' },
      'search',
    ],
    [
      'featureFlags(tags)',
      'query($p: ID!, $v: [String!]) { featureFlags(projectId: $p, tags: $v) { count } }',
      { v: ['ok', '\u0000'] },
      'tags',
    ],
    [
      'persons(distinctId)',
      'query($p: ID!, $v: String) { persons(projectId: $p, distinctId: $v) { count } }',
      { v: '\u0000' },
      'distinctId',
    ],
    ['persons(search)', 'query($p: ID!, $v: String) { persons(projectId: $p, search: $v) { count } }', { v: 'x\u0000' }, 'search'],
    ['events(event)', 'query($p: ID!, $v: String) { events(projectId: $p, event: $v) { count } }', { v: '\u0000' }, 'event'],
    ['events(distinctId)', 'query($p: ID!, $v: String) { events(projectId: $p, distinctId: $v) { count } }', { v: '\u0000' }, 'distinctId'],
    [
      'groups(search)',
      'query($p: ID!, $v: String) { groups(projectId: $p, groupTypeIndex: 0, search: $v) { count } }',
      { v: '\u0000' },
      'search',
    ],
    ['experiments(search)', 'query($p: ID!, $v: String) { experiments(projectId: $p, search: $v) { count } }', { v: '\u0000' }, 'search'],
  ];

  it.each(cases)('regression: %s holding NUL answered INTERNAL_SERVER_ERROR', async (_label, query, variables, attr) => {
    const res = await app.graphql(query, { p: projectId, ...variables }, world.owner.key);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        message: 'Null characters are not allowed.',
        extensions: { code: 'BAD_USER_INPUT', type: 'validation_error', reason: 'null_characters_not_allowed', attr },
      }),
    ]);
  });

  it('refuses NUL written in the document too, and leaves NUL-free text alone', async () => {
    const literal = await app.graphql(
      `query($p: ID!) { featureFlag(projectId: $p, key: "a\\u0000b") { id } }`,
      { p: projectId },
      world.owner.key,
    );
    expect(literal.body.errors![0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      reason: 'null_characters_not_allowed',
      attr: 'key',
    });
    const viaFragment = await app.graphql(
      `query($p: ID!) { ...Q } fragment Q on Query { featureFlags(projectId: $p, search: "\\u0000") { count } }`,
      { p: projectId },
      world.owner.key,
    );
    expect(viaFragment.body.errors![0].extensions).toMatchObject({ reason: 'null_characters_not_allowed', attr: 'search' });
    const clean = await app.graphql(
      `query($p: ID!) { featureFlag(projectId: $p, key: "loop-flag") { id } }`,
      { p: projectId },
      world.owner.key,
    );
    expect(clean.body).toEqual({ data: { featureFlag: { id: flagId } } });
  });
});
