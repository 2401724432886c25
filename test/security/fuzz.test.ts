import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { getNamedType, isInputObjectType, isObjectType, type GraphQLField, type GraphQLSchema } from 'graphql';
import { buildPublicSchema } from '../../src/graphql/schema';
import { hashPersonalApiKey } from '../../src/auth/personal-api-key';
import { routes } from '../../src/rest/routes';
import type { Member, World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * Property-based fuzzing of every REST row and every GraphQL mutation (reliability issue):
 * generated path params, query strings, headers and bodies (wrong types, huge numbers, deep
 * nesting, long strings, unicode, NUL, lone surrogates, duplicated keys, invalid JSON, wrong
 * content types). Properties: never a 5xx (nor GraphQL INTERNAL_SERVER_ERROR), an answer within
 * REQUEST_TIMEOUT_MS, and a refused request (>= 400, or GraphQL errors without data) leaves every
 * table as it was.
 *
 * Fixed seed. FUZZ_RUNS (default 300) is the total number of cases, two thirds REST, one third
 * GraphQL; `.ci/fuzz` runs 10,000 under a time cap. FUZZ_SEED overrides the seed; FUZZ_DEBUG=1 prints
 * every request and its answer. A failure prints the shrunk case and the raw request (method, path,
 * headers, body) that reproduces it; FUZZ_NO_SHRINK=1 reports the first failing REST case unshrunk.
 */
const TOTAL_RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 42);
const REST_RUNS = Math.max(1, Math.round((TOTAL_RUNS * 2) / 3));
const GRAPHQL_RUNS = Math.max(1, TOTAL_RUNS - REST_RUNS);
const REQUEST_TIMEOUT_MS = 5000;
// Generous: shrinking a failure replays many cases.
const testTimeout = (runs: number) => 120_000 + runs * 1_000;

let app: TestApp;
let world: World;
let schema: GraphQLSchema;
let port: number;

// ---------------------------------------------------------------------------------------------
// Who calls, and the objects that exist (pools refilled when a successful write removes one)

interface Pools {
  project: string[];
  organization: string[];
  flag: string[];
  experiment: string[];
  role: string[];
  membership: string[];
  roleAccess: string[];
  resourceAccess: string[];
  personalApiKey: string[];
  userUuid: string[];
  flagKey: string[];
}
type PoolName = keyof Pools;
const pools: Pools = {
  project: [],
  organization: [],
  flag: [],
  experiment: [],
  role: [],
  membership: [],
  roleAccess: [],
  resourceAccess: [],
  personalApiKey: [],
  userUuid: [],
  flagKey: [],
};
const keys: { owner: string; member: string; readOnly: string } = { owner: '', member: '', readOnly: '' };
let memberUser: Member;
let readOnlyUser: Member;
let created = 0;

const ownerCall = (path: string, method = 'GET', body?: unknown) => app.request(path, { method, key: keys.owner, body });

async function must(res: Promise<{ status: number; body: any }>, what: string): Promise<any> {
  const r = await res;
  if (r.status >= 300) throw new Error(`setup: ${what} answered ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

const projectPath = () => `/api/projects/${world.project.id}`;
const orgPath = () => `/api/organizations/${world.organization.id}`;

async function newFlag(): Promise<string> {
  const key = `fuzz-target-${++created}`;
  const flag = await must(
    ownerCall(`${projectPath()}/feature_flags/`, 'POST', { key, filters: { groups: [{ properties: [], rollout_percentage: 50 }] } }),
    'create flag',
  );
  pools.flag.unshift(String(flag.id));
  pools.flagKey.unshift(key);
  return String(flag.id);
}
async function newExperiment(): Promise<void> {
  const exp = await must(
    ownerCall(`${projectPath()}/experiments/`, 'POST', {
      name: `Fuzz ${++created}`,
      feature_flag_key: `fuzz-exp-${created}`,
      parameters: {},
      filters: { events: [{ order: 0, id: '$pageview' }], properties: [] },
    }),
    'create experiment',
  );
  pools.experiment.unshift(String(exp.id));
}
async function newRole(): Promise<void> {
  const role = await must(ownerCall(`${orgPath()}/roles/`, 'POST', { name: `Fuzz role ${++created}` }), 'create role');
  pools.role.unshift(String(role.id));
  const membership = await must(
    ownerCall(`${orgPath()}/roles/${role.id}/role_memberships/`, 'POST', { user_uuid: memberUser.user.uuid }),
    'add member',
  );
  pools.membership.unshift(String(membership.id));
  const access = await must(
    ownerCall(`${projectPath()}/feature_flags/${pools.flag[0]}/role_access/`, 'POST', { role_id: role.id }),
    'grant role access',
  );
  pools.roleAccess.unshift(String(access.id));
}
async function newResourceAccess(): Promise<void> {
  const res = await ownerCall(`${orgPath()}/resource_access/`, 'POST', { resource: 'feature flags', access_level: 21 });
  if (res.status < 300) pools.resourceAccess.unshift(String(res.body.id));
  else if (!pools.resourceAccess.length) {
    // one per organization and resource: take the existing one
    const list = await must(ownerCall(`${orgPath()}/resource_access/`), 'list resource access');
    for (const row of list.results ?? []) pools.resourceAccess.unshift(String(row.id));
  }
}
async function newSpareKey(): Promise<void> {
  const res = await must(ownerCall('/api/personal_api_keys/', 'POST', { label: `spare ${++created}`, scopes: ['*'] }), 'create key');
  pools.personalApiKey.unshift(String(res.id));
}

/** After a successful write: make sure each kind of target exists again, and the callers' keys work. */
async function heal(): Promise<void> {
  for (const [name, user] of [
    ['owner', world.owner],
    ['member', memberUser],
    ['readOnly', readOnlyUser],
  ] as const) {
    // Asked of the database, not the service: a key revoked a moment ago (DELETE …/@current) may still be
    // remembered by the service for up to a second, and then the next setup call would fail with 401.
    const [row] = await app.orm.em
      .fork()
      .getConnection()
      .execute<Array<{ live: boolean }>>('select exists(select 1 from personal_api_key where secure_value = ?) as live', [
        hashPersonalApiKey(keys[name]),
      ]);
    const refused = row.live && (await app.request('/api/personal_api_keys/@current/', { key: keys[name] })).status === 401;
    if (!row.live || refused)
      keys[name] = await app.factories.key(user.user, name === 'readOnly' ? { scopes: ['feature_flag:read', 'experiment:read'] } : {});
  }
  const flag = await ownerCall(`${projectPath()}/feature_flags/${pools.flag[0]}/`);
  if (flag.status !== 200 || flag.body.deleted) await newFlag();
  if ((await ownerCall(`${projectPath()}/experiments/${pools.experiment[0]}/`)).status !== 200) await newExperiment();
  const role = await ownerCall(`${orgPath()}/roles/${pools.role[0]}/`);
  const members = role.status === 200 ? await ownerCall(`${orgPath()}/roles/${pools.role[0]}/role_memberships/`) : null;
  const accesses = await ownerCall(`${projectPath()}/feature_flags/${pools.flag[0]}/role_access/`);
  if (role.status !== 200 || !members?.body.results?.length || !accesses.body.results?.length) await newRole();
  if ((await ownerCall(`${orgPath()}/resource_access/${pools.resourceAccess[0]}/`)).status !== 200) await newResourceAccess();
  if ((await ownerCall(`/api/personal_api_keys/${pools.personalApiKey[0]}/`)).status !== 200) await newSpareKey();
}

// ---------------------------------------------------------------------------------------------
// The database fingerprint: count and newest xmin per table (any insert, update or delete moves
// it), except personal_api_key, whose last_used_at is written by any authenticated request.

const TABLES = [
  'feature_flag',
  'experiment',
  'role',
  'role_membership',
  'feature_flag_role_access',
  'organization_resource_access',
  'person',
  'person_distinct_id',
  'event',
  'group',
  'group_type_mapping',
  'organization',
  'organization_membership',
  'project',
  'app_user',
  'dashboard',
];
const FINGERPRINT_SQL = [
  ...TABLES.map((t) => `select '${t}' as t, count(*)::text || ':' || coalesce(max(xmin::text::bigint), 0)::text as f from "${t}"`),
  `select 'personal_api_key', md5(coalesce(string_agg((to_jsonb(k) - 'last_used_at')::text, ',' order by k.id), '')) from personal_api_key k`,
].join(' union all ');

async function fingerprint(): Promise<Record<string, string>> {
  const rows = await app.factories.sql(FINGERPRINT_SQL);
  return Object.fromEntries(rows.map((r: { t: string; f: string }) => [r.t, r.f]));
}

/** The fingerprint before the next request: kept from the last refused request, recomputed after a success. */
let known: Record<string, string> | null = null;

async function checkUnchanged(describe: () => string): Promise<void> {
  const before = known ?? (await fingerprint());
  const after = await fingerprint();
  known = after;
  const changed = Object.keys(after).filter((t) => after[t] !== before[t]);
  if (changed.length) throw new Error(`a refused request changed ${changed.join(', ')}: ${describe()}`);
}

// ---------------------------------------------------------------------------------------------
// Raw HTTP (node:http, so any method may carry a body, headers may repeat, paths stay raw)

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string | string[]>;
  body?: Buffer;
}
interface Answer {
  status: number;
  text: string;
}

function send(req: Sent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const r = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: req.method,
        path: req.path,
        headers: req.headers,
        agent: false,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    if (req.body !== undefined) r.setHeader('content-length', req.body.length);
    r.on('error', (e) => reject(new Error(`no answer (${e.name}: ${e.message}) to ${show(req)}`)));
    r.end(req.body);
  });
}

function show(req: Sent): string {
  const headers = { ...req.headers };
  for (const [k, v] of Object.entries(headers))
    if (k === 'authorization') headers[k] = ([] as string[]).concat(v).map((x) => x.replace(/phx_\w+/g, 'phx_<key>'));
  const body =
    req.body === undefined
      ? ''
      : req.body.length > 600
        ? `${JSON.stringify(req.body.subarray(0, 600).toString('utf8'))}… (${req.body.length} bytes)`
        : JSON.stringify(req.body.toString('utf8'));
  return `${req.method} ${req.path.length > 300 ? `${req.path.slice(0, 300)}…` : req.path} headers=${JSON.stringify(headers)} body=${body}`;
}

/**
 * encodeURIComponent that also takes lone surrogates: they become their WTF-8 bytes (%ED%A0%80),
 * invalid UTF-8 the server must refuse or ignore.
 */
function enc(s: string): string {
  return s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|[^]/gu, (c) => {
    if (c.length === 1 && c.charCodeAt(0) >= 0xd800 && c.charCodeAt(0) <= 0xdfff) {
      const u = c.charCodeAt(0);
      return [0xe0 | (u >> 12), 0x80 | ((u >> 6) & 0x3f), 0x80 | (u & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    }
    return encodeURIComponent(c);
  });
}

// ---------------------------------------------------------------------------------------------
// Values: a tree that may hold raw JSON text (huge numbers, deep nesting) and duplicated keys

class Raw {
  constructor(readonly text: string) {}
}
class Dup {
  constructor(readonly pairs: [string, unknown][]) {}
}

function toJson(v: unknown): string {
  if (v instanceof Raw) return v.text;
  if (v instanceof Dup) return `{${v.pairs.map(([k, x]) => `${JSON.stringify(k)}:${toJson(x)}`).join(',')}}`;
  if (Array.isArray(v)) return `[${v.map(toJson).join(',')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}:${toJson(x)}`)
      .join(',')}}`;
  if (v === undefined || typeof v === 'bigint' || typeof v === 'function' || typeof v === 'symbol') return 'null';
  return JSON.stringify(v); // lone surrogates and NUL come out as \ud800 and \u0000 escapes
}

/** For form bodies and query strings: a flat text of a value. */
const flat = (v: unknown): string => (typeof v === 'string' ? v : toJson(v));

const FIELD_NAMES = [
  'key',
  'name',
  'filters',
  'groups',
  'properties',
  'variants',
  'multivariate',
  'payloads',
  'rollout_percentage',
  'variant',
  'aggregation_group_type_index',
  'parameters',
  'feature_flag_key',
  'role_id',
  'user_uuid',
  'deleted',
  'active',
  'version',
  'tags',
  'description',
  'start_date',
  'end_date',
  'archived',
  'secondary_metrics',
  'created_at',
  'created_by',
  'id',
  'resource',
  'access_level',
  'feature_flags_access_level',
  'label',
  'scopes',
  'scoped_teams',
  'scoped_organizations',
  'ensure_experience_continuity',
  'rollback_conditions',
  'analytics_dashboards',
  'evaluation_runtime',
  'condition',
  'group_type_index',
  'distinct_id',
  'type',
  'operator',
  'value',
  '__proto__',
  'constructor',
  '',
];

const HUGE_NUMBERS = [
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775808',
  '2147483648',
  '-2147483649',
  '1e400',
  '-1e400',
  '1e-400',
  '123456789012345678901234567890',
  '0.1e1',
  '-0',
  '1.0',
  '4294967296',
];

const weirdText = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  {
    weight: 1,
    arbitrary: fc.string({
      unit: fc.constantFrom('\u0000', '\ud800', '\udfff', 'é', '𝟘', '\u202e', '\ufeff', '%', '/', '.', '"', '\\'),
      maxLength: 8,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '\u0000',
      'a\u0000b',
      '\ud800',
      'x\udfffy',
      '..',
      '../..',
      '%00',
      '%',
      '%zz',
      '%ff',
      '@current',
      'null',
      'true',
      'False',
      'NaN',
      'Infinity',
      '-0',
      '1e400',
      '9223372036854775807',
      '-1',
      '0',
      '1.5',
      '２',
      'é',
      '<script>',
      "' or 1=1 --",
      '$1',
      '\n\r\t',
      '2024-02-30T00:00',
      '9999-12-31T23:59:59Z',
      '10000-01-01T00:00:00Z',
      '0000-01-01',
      '00000000-0000-0000-0000-000000000000',
      'feature flags',
      'control',
      'test',
      // Patterns that backtrack catastrophically, or that only one of RE2 and ECMAScript reads (docs/evaluation.md §4.7).
      '^(a+)+$',
      '(x+x+)+y',
      '^(a|aa)+$',
      'a(?=b)',
      '(a)\\1',
      '(?i)abc',
      '(?:a{1,100}b){20}',
    ),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.integer({ min: 256, max: 10_000 }), fc.constantFrom('x', 'é', '\u0000', '𝟘')).map(([n, c]) => c.repeat(n)),
  },
  {
    // The issue's hostile values: a catastrophic regex's nemesis, and a number that is not one.
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 29, max: 60_000 }), fc.constantFrom('a', '1', '9'))
      .map(([n, c]) => `${c.repeat(n)}${c === 'a' ? '!' : 'x'}`),
  },
);

const weirdScalar: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: weirdText },
  {
    weight: 2,
    arbitrary: fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -1, 1, 21, 37, 50, 100, 101, 2 ** 31, 2 ** 53, Number.MAX_VALUE)),
  },
  { weight: 1, arbitrary: fc.constantFrom(...HUGE_NUMBERS).map((n) => new Raw(n)) },
  { weight: 2, arbitrary: fc.constantFrom(null, true, false) },
);

const deep = fc.tuple(fc.integer({ min: 2, max: 50 }), fc.boolean(), fc.constantFrom(...FIELD_NAMES)).map(([depth, arrays, field]) => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = arrays ? [v] : { [field]: v };
  return v;
});
const veryDeep = fc
  .tuple(fc.constantFrom(999, 1000, 1001, 1500, 5000), fc.boolean())
  .map(([depth, arrays]) => new Raw(arrays ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`));

const { value: anyValue } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 5, arbitrary: weirdScalar },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    {
      weight: 1,
      arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...FIELD_NAMES), fc.string({ maxLength: 6 })), tie('value'), { maxKeys: 4 }),
    },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.tuple(fc.constantFrom('key', 'name', 'id', 'a', '__proto__'), tie('value')), { minLength: 2, maxLength: 4 })
        .map((p) => new Dup(p)),
    },
  ),
}));
const value = fc.oneof(
  { weight: 12, arbitrary: anyValue },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: deep },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
);

const orWeird = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 3, arbitrary: arb as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: value });
const property = fc.record(
  {
    key: orWeird(fc.constantFrom('email', 'plan', '$group_key', 'id')),
    value: value,
    operator: orWeird(
      fc.constantFrom(
        'exact',
        'is_not',
        'icontains',
        'not_icontains',
        'regex',
        'not_regex',
        'gt',
        'gte',
        'lt',
        'lte',
        'is_set',
        'is_not_set',
        'is_date_before',
        'is_date_after',
        'is_date_exact',
        'in',
        'not_in',
        'semver_gt',
        'bogus',
      ),
    ),
    type: orWeird(fc.constantFrom('person', 'cohort', 'group', 'event', 'flag', 'x')),
    group_type_index: orWeird(fc.integer({ min: -1, max: 6 })),
  },
  { requiredKeys: [] },
);
const rollout = orWeird(fc.oneof(fc.integer({ min: -10, max: 110 }), fc.double({ min: 0, max: 100, noNaN: true })));
const filters = fc.record(
  {
    groups: orWeird(
      fc.array(
        fc.record(
          {
            properties: orWeird(fc.array(property, { maxLength: 3 })),
            rollout_percentage: rollout,
            variant: orWeird(fc.constantFrom('control', 'test', '')),
          },
          { requiredKeys: [] },
        ),
        { maxLength: 3 },
      ),
    ),
    multivariate: orWeird(
      fc.record(
        {
          variants: orWeird(
            fc.array(
              fc.record(
                { key: orWeird(fc.constantFrom('control', 'test', 'a')), name: value, rollout_percentage: rollout },
                { requiredKeys: [] },
              ),
              { maxLength: 4 },
            ),
          ),
        },
        { requiredKeys: [] },
      ),
    ),
    payloads: value,
    aggregation_group_type_index: orWeird(fc.integer({ min: -1, max: 6 })),
  },
  { requiredKeys: [] },
);

const fieldValue = (field: string): fc.Arbitrary<unknown> => {
  switch (field) {
    case 'filters':
      return fc.oneof({ weight: 3, arbitrary: filters }, { weight: 1, arbitrary: value }, { weight: 1, arbitrary: veryDeep });
    case 'parameters':
      return fc.oneof(
        fc.record(
          {
            feature_flag_variants: orWeird(
              fc.array(fc.record({ key: orWeird(fc.constantFrom('control', 'test')), rollout_percentage: rollout }, { requiredKeys: [] }), {
                maxLength: 3,
              }),
            ),
            recommended_sample_size: value,
          },
          { requiredKeys: [] },
        ),
        value,
      );
    case 'key':
    case 'feature_flag_key':
      return fc.oneof(fc.stringMatching(/^[a-z0-9_-]{1,20}$/), fc.constant('@flagKey'), value);
    case 'role_id':
      return fc.oneof(fc.constant('@role'), value);
    case 'user_uuid':
      return fc.oneof(fc.constant('@user'), value);
    case 'deleted':
    case 'active':
    case 'archived':
      return fc.oneof(fc.constantFrom(true, false, 'true', 'False', 'yes', 0, 1, 2), value);
    case 'version':
      return fc.oneof(fc.integer({ min: -1, max: 5 }), fc.constant(new Raw('9223372036854775807')), value);
    case 'scopes':
      return fc.oneof(
        fc.array(fc.constantFrom('*', 'feature_flag:read', 'feature_flag:write', 'organization:write', 'bogus', ''), { maxLength: 3 }),
        value,
      );
    default:
      return value;
  }
};

/** An object with the API's real field names among others; sometimes with duplicated keys. */
const bodyObject = fc
  .tuple(
    fc.array(
      fc
        .oneof({ weight: 4, arbitrary: fc.constantFrom(...FIELD_NAMES) }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }) })
        .chain((f) => fieldValue(f).map((v) => [f, v] as [string, unknown])),
      { maxLength: 6 },
    ),
    fc.boolean(),
  )
  .map(([pairs, keepDuplicates]) =>
    keepDuplicates && new Set(pairs.map((p) => p[0])).size < pairs.length ? new Dup(pairs) : Object.fromEntries(pairs),
  );

/** Placeholders for real objects, resolved when the case runs (pools change as writes succeed). */
function resolve(v: unknown): unknown {
  if (v === '@flagKey') return pools.flagKey[0];
  if (v === '@role') return pools.role[0];
  if (v === '@user') return memberUser.user.uuid;
  if (v instanceof Dup) return new Dup(v.pairs.map(([k, x]) => [k, resolve(x)]));
  if (v instanceof Raw || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(resolve);
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x)]));
}

// Bodies: [bytes (resolved at run time), the content type that fits them]
type BodyGen = { make: () => Buffer; natural: string } | null;
const INVALID_JSON = [
  '{bad',
  '{"a":',
  '',
  ' ',
  '{"key":"a",}',
  "{'key':'a'}",
  'NaN',
  '\ufeff{}',
  '{"key":"a\u0000"}',
  '[',
  '{"key":"a"}}',
  '{"key":"a"} {"key":"b"}',
  '{"key":"\\ud800"}',
  '{"key":"\\x00"}',
  '{"key":"\\u00"}',
  '{"key":01}',
  '{"key":1e}',
  '{"key":-}',
  '{"key":"a" "name":"b"}',
  '{key:"a"}',
  '\u0000',
  'null',
  'true',
  '1',
  '"s"',
  '[]',
  '{}',
];
const body: fc.Arbitrary<BodyGen> = fc.oneof(
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 8, arbitrary: bodyObject.map((o) => ({ make: () => Buffer.from(toJson(resolve(o))), natural: 'application/json' })) },
  { weight: 2, arbitrary: value.map((v) => ({ make: () => Buffer.from(toJson(v)), natural: 'application/json' })) },
  {
    weight: 2,
    arbitrary: fc
      .oneof(fc.constantFrom(...INVALID_JSON), fc.string({ maxLength: 30 }))
      .map((t) => ({ make: () => Buffer.from(t), natural: 'application/json' })),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(bodyObject, fc.nat()).map(([o, cut]) => ({
      make: () => {
        const t = toJson(resolve(o));
        return Buffer.from(t.slice(0, t.length ? cut % t.length : 0));
      },
      natural: 'application/json',
    })),
  },
  {
    weight: 1,
    arbitrary: veryDeep.map((r) => ({ make: () => Buffer.from(`{"filters":${r.text},"name":${r.text}}`), natural: 'application/json' })),
  },
  {
    weight: 2,
    arbitrary: fc
      .array(
        fc.tuple(fc.oneof(fc.constantFrom(...FIELD_NAMES, 'filters[groups][0]', 'key[]', 'a.b'), weirdText), fc.oneof(weirdText, value)),
        { maxLength: 6 },
      )
      .map((pairs) => ({
        make: () => Buffer.from(pairs.map(([k, v]) => `${enc(k)}=${enc(flat(resolve(v)))}`).join('&')),
        natural: 'application/x-www-form-urlencoded',
      })),
  },
  {
    weight: 1,
    arbitrary: fc.uint8Array({ maxLength: 200 }).map((b) => ({ make: () => Buffer.from(b), natural: 'application/octet-stream' })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        Buffer.from([0x7b, 0x22, 0x6b, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('\u00e9', 'latin1'),
      )
      .map((b) => ({ make: () => b, natural: 'application/json' })),
  },
);

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/x-www-form-urlencoded',
  'text/plain',
  'multipart/form-data; boundary=----x',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/octet-stream',
  '*/*',
  'application/merge-patch+json',
  'application/graphql',
  'application/json, text/plain',
  'garbage',
  '',
];
const contentType = fc.oneof(
  { weight: 5, arbitrary: fc.constant('natural') },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
);

/** Header values must be printable Latin-1 for node:http; anything else is percent-encoded. */
const headerSafe = (s: string) => s.replace(/[^\x20-\x7e\xa0-\xff]/g, (c) => enc(c));
const auth = fc.oneof(
  { weight: 14, arbitrary: fc.constant<string[] | string | undefined>('owner') },
  { weight: 2, arbitrary: fc.constantFrom<string[] | string | undefined>('member', 'readOnly') },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: weirdText.map((t) => `Bearer ${headerSafe(t).slice(0, 4000)}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'Bearer ',
      'Bearer phx_',
      'Basic Zm9vOmJhcg==',
      'bearer owner',
      'owner',
      ['owner', 'Bearer phx_bogus'],
      ['Bearer phx_bogus', 'owner'],
    ),
  },
);
function authHeader(a: string[] | string | undefined): string | string[] | undefined {
  const one = (x: string) =>
    x === 'owner' || x === 'member' || x === 'readOnly' ? `Bearer ${keys[x]}` : x.replace(/\b(owner)\b/, keys.owner);
  if (a === undefined) return undefined;
  return Array.isArray(a) ? a.map(one) : one(a);
}
const extraHeaders = fc.dictionary(
  fc.constantFrom(
    'accept',
    'accept-encoding',
    'content-encoding',
    'x-forwarded-for',
    'x-forwarded-proto',
    'x-forwarded-host',
    'origin',
    'if-none-match',
    'x-request-id',
    'accept-language',
    'x-http-method-override',
  ),
  fc.oneof(
    fc.constantFrom(
      'gzip',
      'deflate',
      'br',
      'identity',
      'bogus',
      'gzip, gzip',
      '*/*',
      'text/html',
      'W/"x"',
      '*',
      'DELETE',
      'null',
      '::1',
      '0.0.0.0, 1.1.1.1',
    ),
    weirdText.map((t) => headerSafe(t).slice(0, 2000)),
  ),
  { maxKeys: 2 },
);

// Path params and query strings
type Param = { valid: true; pick: number } | { valid: false; text: string; raw: boolean };
const param: fc.Arbitrary<Param> = fc.oneof(
  { weight: 5, arbitrary: fc.oneof(fc.constant(0), fc.constant(0), fc.nat(3)).map((pick): Param => ({ valid: true, pick })) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.oneof(weirdText, fc.constantFrom(...HUGE_NUMBERS), fc.bigInt().map(String)), fc.boolean())
      .map(([text, raw]): Param => ({ valid: false, text, raw })),
  },
);
/** Percent-encodes what node:http refuses in a path; keeps `..`, `%`, Latin-1 bytes (invalid UTF-8) raw. */
const rawPath = (s: string) => s.replace(/[^\x21-\xff]|[?#]/g, (c) => enc(c));
const QUERY_KEYS = [
  'limit',
  'offset',
  'search',
  'active',
  'type',
  'tags',
  'created_by_id',
  'status',
  'archived',
  'token',
  'distinct_id',
  'groups',
  'key',
  'id',
  'properties',
  'person_id',
  'event',
  'after',
  'before',
  'order',
  'evaluation_runtime',
  'send_cohorts',
  'personal_api_key',
  'format',
  'limit[]',
];
const query = fc.oneof(
  { weight: 2, arbitrary: fc.constant('') },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.array(
          fc.tuple(
            fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...QUERY_KEYS) }, { weight: 1, arbitrary: weirdText }),
            fc.oneof(weirdText, value, fc.constantFrom(...HUGE_NUMBERS)),
            fc.boolean(),
          ),
          { maxLength: 5 },
        ),
        fc.boolean(),
      )
      .map(([pairs, repeat]) => {
        const all = repeat && pairs.length ? [...pairs, pairs[0]] : pairs;
        return `?${all.map(([k, v, raw]) => (raw ? `${rawPath(k)}=${rawPath(flat(v))}` : `${enc(k)}=${enc(flat(v))}`)).join('&')}`;
      }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '?',
      '?&&',
      '?=',
      '?limit',
      '?limit=1&limit=2&limit=3',
      '?offset=%',
      '?search=%zz',
      '?a[b][c]=1',
      '?tags=[1',
      '?token=phc_x&token=',
      '?%00=%00',
    ),
  },
);

/** Which pool a route's path parameter is drawn from. */
function poolFor(path: string, name: string): PoolName | null {
  if (name === 'project_id') return 'project';
  if (name === 'organization_id') return 'organization';
  if (name === 'parent_lookup_feature_flag_id') return 'flag';
  if (name === 'role_id') return 'role';
  if (name !== 'id') return null;
  if (path.includes('role_access')) return 'roleAccess';
  if (path.includes('role_memberships')) return 'membership';
  if (path.includes('resource_access')) return 'resourceAccess';
  if (path.includes('personal_api_keys')) return 'personalApiKey';
  if (path.includes('experiments')) return 'experiment';
  return 'flag';
}

function resolveParam(route: string, name: string, p: Param): string {
  if (!p.valid) {
    // `@current` would revoke the caller's own key: allowed, but heal() then makes a new one
    return p.raw ? rawPath(p.text) : enc(p.text);
  }
  const pool = poolFor(route, name);
  const list = pool ? pools[pool] : [];
  // pick 0 is the live object; higher picks are older (perhaps deleted) ones or the other world's
  return list.length ? enc(list[Math.min(p.pick, list.length - 1)]) : '1';
}

const isRefused = (status: number) => status >= 400;

// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  app = await startTestApp();
  port = Number(new URL(app.baseUrl).port);
  schema = await buildPublicSchema();
  world = await app.factories.world();
  const other = await app.factories.world(); // objects the caller may not touch
  keys.owner = world.owner.key;
  memberUser = await app.factories.member(world.organization, 'member');
  keys.member = memberUser.key;
  readOnlyUser = await app.factories.member(world.organization, 'member', { scopes: ['feature_flag:read', 'experiment:read'] });
  keys.readOnly = readOnlyUser.key;
  pools.project.push(String(world.project.id), '@current', String(other.project.id));
  pools.organization.push(world.organization.id, '@current', other.organization.id);

  // the other world's objects, at the end of each pool (picked with the highest index)
  const otherFlag = await must(
    app.request(`/api/projects/${other.project.id}/feature_flags/`, { method: 'POST', key: other.owner.key, body: { key: 'other' } }),
    'other flag',
  );
  const otherRole = await must(
    app.request(`/api/organizations/${other.organization.id}/roles/`, { method: 'POST', key: other.owner.key, body: { name: 'Other' } }),
    'other role',
  );

  await newFlag();
  await newExperiment();
  await newRole();
  await newResourceAccess();
  await newSpareKey();
  pools.flag.push(String(otherFlag.id));
  pools.role.push(String(otherRole.id));
}, 120_000);
afterAll(() => app?.close());

describe('fuzz', () => {
  it('the table fingerprint sees a write (so an unchanged one means something)', async () => {
    const before = await fingerprint();
    await must(ownerCall(`${projectPath()}/feature_flags/${pools.flag[0]}/`, 'PATCH', { name: 'fingerprint check' }), 'patch flag');
    const after = await fingerprint();
    expect(after.feature_flag).not.toBe(before.feature_flag);
    expect(after.personal_api_key).toBe(before.personal_api_key); // last_used_at is left out
  });

  it(
    `REST: every route, ${REST_RUNS} generated requests (seed ${SEED}): no 5xx, no hang, a refusal changes nothing`,
    async () => {
      const restRoutes = routes.map((r) => ({ method: r.method, path: r.path }));
      // CONNECT is left out: Node's http server closes the socket itself (no 'connect' listener), the app never sees it.
      const otherMethods = ['HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'QUERY'];
      const request = fc.record({
        route: fc.nat(restRoutes.length - 1),
        method: fc.oneof(
          { weight: 12, arbitrary: fc.constant(null) },
          { weight: 2, arbitrary: fc.constantFrom('GET', 'POST', 'PATCH', 'PUT', 'DELETE') },
          { weight: 1, arbitrary: fc.constantFrom(...otherMethods) },
        ),
        params: fc.array(param, { minLength: 4, maxLength: 4 }),
        trailingSlash: fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom('/', '') },
          { weight: 1, arbitrary: fc.constantFrom('//', '/..', '/.', '/%2e%2e', '/x') },
        ),
        query,
        body,
        contentType,
        auth,
        extra: extraHeaders,
      });
      const counts = { total: 0, refused: 0 };
      const statuses: Record<number, number> = {};
      await fc.assert(
        fc.asyncProperty(request, async (c) => {
          const route = restRoutes[c.route];
          let i = 0;
          const path = route.path.replace(/:([a-z_]+)/g, (_, name: string) => resolveParam(route.path, name, c.params[i++]));
          const headers: Record<string, string | string[]> = { ...c.extra };
          const authorization = authHeader(c.auth);
          if (authorization !== undefined) headers.authorization = authorization;
          const bytes = c.body?.make();
          const type = c.contentType === 'natural' ? c.body?.natural : c.contentType;
          if (type !== undefined && (bytes !== undefined || c.contentType !== 'natural')) headers['content-type'] = type;
          const method = c.method ?? route.method;
          const req: Sent = { method, path: `${path}${c.trailingSlash}${c.query}`, headers, body: bytes };
          if (!known) known = await fingerprint();
          const res = await send(req);
          counts.total += 1;
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          if (process.env.FUZZ_DEBUG) console.log(res.status, res.text.slice(0, 200), show(req).slice(0, 400));
          if (res.status >= 500) throw new Error(`${res.status} ${res.text.slice(0, 300)} for ${show(req)}`);
          if (isRefused(res.status)) {
            counts.refused += 1;
            await checkUnchanged(() => `${res.status} for ${show(req)}`);
          } else {
            known = null;
            if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') await heal();
          }
        }),
        // FUZZ_NO_SHRINK=1: report the first failing case as generated (shrinking replays many cases).
        { seed: SEED, numRuns: REST_RUNS, endOnFailure: Boolean(process.env.FUZZ_NO_SHRINK) },
      );
      console.log(`REST fuzz: ${counts.total} requests (${counts.refused} refused; statuses ${JSON.stringify(statuses)}), seed ${SEED}`);
    },
    testTimeout(REST_RUNS),
  );

  it(
    `GraphQL: every mutation, ${GRAPHQL_RUNS} generated operations (seed ${SEED}): no 5xx or INTERNAL_SERVER_ERROR, a refusal changes nothing`,
    async () => {
      const mutationFields = Object.values(schema.getMutationType()!.getFields());
      expect(mutationFields.length).toBeGreaterThan(10);

      const idPool = (field: string, arg: string): PoolName | null => {
        if (arg === 'projectId') return 'project';
        if (arg === 'organizationId') return 'organization';
        if (arg === 'featureFlagId') return 'flag';
        if (arg === 'roleId') return 'role';
        if (arg !== 'id') return null;
        if (/RoleAccess/.test(field)) return 'roleAccess';
        if (/RoleMember/.test(field)) return 'membership';
        if (/ResourceAccess/.test(field)) return 'resourceAccess';
        if (/PersonalApiKey/.test(field)) return 'personalApiKey';
        if (/Experiment/.test(field)) return 'experiment';
        if (/Role/.test(field)) return 'role';
        return 'flag';
      };
      const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      const inputArb = (field: GraphQLField<unknown, unknown>, argName: string): fc.Arbitrary<unknown> => {
        const arg = field.args.find((a) => a.name === argName)!;
        const named = getNamedType(arg.type);
        if (!isInputObjectType(named)) return value;
        const names = Object.keys(named.getFields());
        const fieldArb = fc.oneof(
          { weight: 15, arbitrary: fc.constantFrom(...names) },
          { weight: 1, arbitrary: fc.constantFrom(...names.map(snake), ...FIELD_NAMES) },
        );
        const fields = named.getFields();
        // mostly a value GraphQL's coercion lets through (so the resolver and service see it), sometimes anything
        const typed = (f: string): fc.Arbitrary<unknown> => {
          const t = fields[f] ? getNamedType(fields[f].type).name : 'JSON';
          const real = fieldValue(snake(f));
          if (t === 'String' || t === 'ID')
            return fc.oneof(
              real.filter((v) => typeof v === 'string'),
              weirdText,
              fc.constant('@flagKey'),
            );
          if (t === 'Int') return fc.oneof(fc.integer({ min: -5, max: 100 }), fc.constantFrom(21, 37, 2147483647, -2147483648));
          if (t === 'Float') return fc.double({ noNaN: true, noDefaultInfinity: true });
          if (t === 'Boolean') return fc.boolean();
          return real;
        };
        const obj = fc
          .array(
            fieldArb.chain((f) =>
              fc
                .oneof({ weight: 8, arbitrary: typed(f) }, { weight: 1, arbitrary: fieldValue(snake(f)) })
                .map((v) => [f, v] as [string, unknown]),
            ),
            { maxLength: 5 },
          )
          .map((pairs) => Object.fromEntries(pairs));
        return fc.oneof({ weight: 5, arbitrary: obj }, { weight: 1, arbitrary: value });
      };
      const argValue = (field: GraphQLField<unknown, unknown>, argName: string): fc.Arbitrary<unknown> => {
        if (argName === 'input') return inputArb(field, argName);
        const pool = idPool(field.name, argName);
        return fc.oneof(
          { weight: 6, arbitrary: fc.oneof(fc.constant(0), fc.constant(0), fc.nat(3)).map((pick) => ({ __pick: pick, pool })) },
          { weight: 1, arbitrary: fc.oneof(weirdText, fc.integer(), fc.constantFrom(...HUGE_NUMBERS)) },
          { weight: 1, arbitrary: value },
        );
      };
      const pickValue = (v: unknown, isInt: boolean): unknown => {
        if (v && typeof v === 'object' && '__pick' in v) {
          const { __pick, pool } = v as { __pick: number; pool: PoolName | null };
          const list = pool ? pools[pool] : [];
          const chosen = list.length ? list[Math.min(__pick, list.length - 1)] : '1';
          return isInt && /^\d+$/.test(chosen) ? Number(chosen) : chosen;
        }
        return resolve(v);
      };
      const operation = fc.nat(mutationFields.length - 1).chain((index) => {
        const field = mutationFields[index];
        return fc.record({
          index: fc.constant(index),
          variables: fc.tuple(...field.args.map((a) => argValue(field, a.name))),
          omit: fc.oneof({ weight: 8, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat(field.args.length - 1) }),
          auth,
          contentType: fc.oneof(
            { weight: 8, arbitrary: fc.constant('application/json') },
            { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
          ),
          garbage: fc.oneof(
            { weight: 10, arbitrary: fc.constant(null) },
            {
              weight: 1,
              arbitrary: fc.oneof(
                fc.constantFrom(...INVALID_JSON),
                fc.string({ maxLength: 40 }),
                veryDeep.map((r) => `{"query":"mutation { a }","variables":${r.text}}`),
              ),
            },
          ),
          batch: fc.oneof({ weight: 15, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
        });
      });
      const counts = { total: 0, refused: 0 };
      const statuses: Record<string, number> = {};
      await fc.assert(
        fc.asyncProperty(operation, async (c) => {
          const field = mutationFields[c.index];
          const returns = getNamedType(field.type);
          const selection = isObjectType(returns) ? ' { __typename }' : '';
          const args = field.args.filter((_, i) => i !== c.omit);
          const document =
            `mutation Fuzz(${args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ')}) { result: ${field.name}(${args.map((a) => `${a.name}: $${a.name}`).join(', ')})${selection} }`.replace(
              'Fuzz()',
              'Fuzz',
            );
          const variables = Object.fromEntries(
            field.args
              .map((a, i) => [a.name, pickValue(c.variables[i], getNamedType(a.type).name === 'Int')])
              .filter((_, i) => i !== c.omit),
          );
          const payload = { query: document, variables: new Raw(toJson(variables)), operationName: 'Fuzz' };
          const text = c.garbage ?? (c.batch ? `[${toJson(payload)}]` : toJson(payload));
          const headers: Record<string, string | string[]> = { 'content-type': c.contentType };
          const authorization = authHeader(c.auth);
          if (authorization !== undefined) headers.authorization = authorization;
          const req: Sent = { method: 'POST', path: '/graphql', headers, body: Buffer.from(text) };
          if (!known) known = await fingerprint();
          const res = await send(req);
          counts.total += 1;
          if (process.env.FUZZ_DEBUG) console.log(res.status, res.text.slice(0, 200), show(req).slice(0, 400));
          if (res.status >= 500) throw new Error(`${res.status} ${res.text.slice(0, 300)} for ${show(req)}`);
          let parsed: any = null;
          try {
            parsed = JSON.parse(res.text);
          } catch {
            // not JSON: judged by status alone
          }
          const results: any[] = Array.isArray(parsed) ? parsed : [parsed];
          for (const r of results) {
            const internal = (r?.errors ?? []).filter((e: any) => e?.extensions?.code === 'INTERNAL_SERVER_ERROR');
            if (internal.length) throw new Error(`INTERNAL_SERVER_ERROR ${JSON.stringify(internal).slice(0, 300)} for ${show(req)}`);
          }
          const refused = isRefused(res.status) || results.every((r) => r?.errors?.length && (r.data == null || r.data.result == null));
          const outcome = refused
            ? `${res.status}:${results[0]?.errors?.[0]?.extensions?.code ?? results[0]?.code ?? 'refused'}`
            : `${res.status}:ok`;
          statuses[outcome] = (statuses[outcome] ?? 0) + 1;
          if (refused) {
            counts.refused += 1;
            await checkUnchanged(() => `${res.status} ${res.text.slice(0, 200)} for ${show(req)}`);
          } else {
            known = null;
            await heal();
          }
        }),
        { seed: SEED, numRuns: GRAPHQL_RUNS },
      );
      console.log(
        `GraphQL fuzz: ${counts.total} operations (${counts.refused} refused; outcomes ${JSON.stringify(statuses)}), seed ${SEED}`,
      );
    },
    testTimeout(GRAPHQL_RUNS),
  );
});
