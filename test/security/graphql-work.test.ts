import { Client } from 'pg';
import { isObjectType, type GraphQLSchema } from 'graphql';
import { COMPUTING_FIELD_WEIGHTS } from '../../src/graphql/computing-fields';
import { buildPublicSchema } from '../../src/graphql/schema';
import { expectRefused } from '../helpers/graphql-refusal';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { experimentKit } from '../experiment-results/helpers';

/**
 * Regressions of issue 22 part 5, "GraphQL work that matches its cost": `Experiment.results` counted
 * as one object, so 24 aliases of a 1,000-experiment page with `results(refresh: true)` passed the
 * cost limit and held every pooled connection for seconds; and when one result failed, the response
 * went out while the other computations ran on.
 */
const REFRESHES_PER_MINUTE = 3;
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ rateLimit: { refreshPerMinute: REFRESHES_PER_MINUTE } });
});
afterAll(() => app.close());

/** A world with `n` started experiments, each with exposures and a conversion per variant: every result computes and is stored. */
async function worldWithExperiments(n: number, overrides: Record<string, unknown> = {}) {
  const world = await app.factories.world();
  const kit = experimentKit(app, world);
  const experiments = [];
  for (let i = 0; i < n; i++) {
    const e = await kit.create({ filters: { events: [{ id: 'purchase', order: 0 }] }, ...overrides });
    const k = e.feature_flag_key;
    await kit.send([
      kit.exposure(k, `a-${k}`, 'control'),
      kit.exposure(k, `b-${k}`, 'test'),
      kit.metric('purchase', k, `a-${k}`, 'control'),
      kit.metric('purchase', k, `b-${k}`, 'test'),
    ]);
    experiments.push(e);
  }
  return { world, kit, experiments, projectId: String(world.project.id) };
}

async function storedResults(experimentIds: number[]): Promise<number> {
  const ids = experimentIds.map((id) => Number(id)).join(', ');
  const [row] = await app.factories.sql(`select count(*)::int as n from experiment_result_cache where experiment_id in (${ids})`);
  return row.n;
}

describe('the cost model weighs computed fields', () => {
  it('weighs only fields the served schema has', async () => {
    const schema: GraphQLSchema = await buildPublicSchema();
    for (const coordinate of Object.keys(COMPUTING_FIELD_WEIGHTS)) {
      const [typeName, fieldName] = coordinate.split('.');
      const type = schema.getType(typeName);
      expect({ coordinate, found: isObjectType(type) && fieldName in type.getFields() }).toEqual({ coordinate, found: true });
    }
  });

  it('regression: refuses 24 aliases of 1,000 experiments with results(refresh: true) before any result is computed', async () => {
    const { world, experiments, projectId } = await worldWithExperiments(3);
    const aliases = Array.from(
      { length: 24 },
      (_, i) => `a${i}: experiments(projectId: $p, limit: 1000) { results { results(refresh: true) { isCached } } }`,
    );
    let res: Awaited<ReturnType<TestApp['graphql']>> | undefined;
    const statements = await app.countQueries(async () => {
      res = await app.graphql(`query($p: ID!) { ${aliases.join(' ')} }`, { p: projectId }, world.owner.key);
    });
    expectRefused(res!, /^Query cost limit of 50000 exceeded, estimated 48048024; .*fewer computed fields\.$/, 'graphql_validation_failed');
    expect(statements).toBe(0);
    expect(await storedResults(experiments.map((e) => e.id))).toBe(0);
    // One alias is refused as well: a page of 1,000 results is 1,000 computations.
    expectRefused(
      await app.graphql(
        `query($p: ID!) { experiments(projectId: $p, limit: 1000) { results { results { isCached } } } }`,
        { p: projectId },
        world.owner.key,
      ),
      /^Query cost limit of 50000 exceeded, estimated 2002001;/,
      'graphql_validation_failed',
    );
  });

  it('still serves what the console asks: one experiment with both results, a page of 20 experiments', async () => {
    const { world, experiments, projectId } = await worldWithExperiments(1, {
      secondary_metrics: [{ name: 'again', filters: { events: [{ id: 'purchase', order: 0 }] } }],
    });
    const one = await app.graphql(
      `query($p: ID!, $id: Int!) { experiment(projectId: $p, id: $id) {
         id name results { result isCached } secondaryResults(index: "0") { result isCached } } }`,
      { p: projectId, id: experiments[0].id },
      world.owner.key,
    );
    expect(one.status).toBe(200);
    expect(one.body.errors).toBeUndefined();
    expect(one.body.data.experiment.secondaryResults.result).toEqual({ control: 1, test: 1 });
    const page = await app.graphql(
      `query($p: ID!) { experiments(projectId: $p, limit: 20) { count results { id name featureFlagKey startDate createdBy { email } } } }`,
      { p: projectId },
      world.owner.key,
    );
    expect(page.status).toBe(200);
    expect(page.body.errors).toBeUndefined();
    expect(page.body.data.experiments.count).toBe(1);
  });
});

describe('refresh has a budget per key', () => {
  it(`recomputes ${REFRESHES_PER_MINUTE} times a minute per key, then refuses: GraphQL TOO_MANY_REQUESTS, REST 429`, async () => {
    const { world, kit, experiments, projectId } = await worldWithExperiments(1);
    const id = experiments[0].id;
    const refresh = (key: string) =>
      app.graphql(
        `query($p: ID!, $id: Int!) { experiment(projectId: $p, id: $id) { results(refresh: true) { isCached lastRefresh } } }`,
        { p: projectId, id },
        key,
      );
    let last = '';
    for (let i = 0; i < REFRESHES_PER_MINUTE; i++) {
      const res = await refresh(world.owner.key);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.experiment.results.isCached).toBe(false);
      last = res.body.data.experiment.results.lastRefresh;
    }
    const refused = await refresh(world.owner.key);
    expect(refused.status).toBe(200);
    expect(refused.body.errors).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(
          /^Too many refreshes: a key may recompute results 3 times a minute\. Expected available in \d+ seconds?; stored results are served without refresh meanwhile\.$/,
        ),
        extensions: { code: 'TOO_MANY_REQUESTS', type: 'throttled_error', reason: 'throttled', attr: null },
      }),
    ]);
    const rest = await kit.results(id, '?refresh=1');
    expect(rest.status).toBe(429);
    expect(Number(rest.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(rest.body).toMatchObject({ type: 'throttled_error', code: 'throttled', attr: null });
    expect(rest.body.detail).toMatch(/^Too many refreshes/);
    const secondary = await kit.secondary(id, '?id=0&refresh=1');
    expect(secondary.status).toBe(400); // no secondary metrics: bad input is answered before the budget is looked at
    // The stored result is untouched and still served; another key has a budget of its own.
    const stored = await kit.results(id);
    expect(stored.body).toMatchObject({ is_cached: true, last_refresh: last });
    const other = await app.factories.key(world.owner.user);
    expect((await refresh(other)).body.data.experiment.results.isCached).toBe(false);
  });
});

describe('one computation per result and request', () => {
  it('regression: aliases of the same result, under one experiment or several, share one computation and one refresh charge', async () => {
    const { world, experiments, projectId } = await worldWithExperiments(1);
    const key = await app.factories.key(world.owner.user);
    const results = (aliases: number) =>
      Array.from({ length: aliases }, (_, i) => `r${i}: results(refresh: true) { isCached lastRefresh }`).join(' ');
    const ask = (query: string) => app.graphql(query, { p: projectId, id: experiments[0].id }, key);
    // Warm-up, not counted: a key's first use stamps it, and the caller's standing is remembered.
    await ask(`query($p: ID!, $id: Int!) { a: experiment(projectId: $p, id: $id) { id } }`);
    let once: Awaited<ReturnType<TestApp['graphql']>> | undefined;
    const oneStatements = await app.countQueries(async () => {
      once = await ask(
        `query($p: ID!, $id: Int!) { a: experiment(projectId: $p, id: $id) { ${results(1)} } b: experiment(projectId: $p, id: $id) { id } }`,
      );
    });
    expect(once!.body.errors).toBeUndefined();
    // The first used one of the key's 3 refreshes a minute; six aliases of it would need six more.
    let many: Awaited<ReturnType<TestApp['graphql']>> | undefined;
    const manyStatements = await app.countQueries(async () => {
      many = await ask(
        `query($p: ID!, $id: Int!) { a: experiment(projectId: $p, id: $id) { ${results(3)} } b: experiment(projectId: $p, id: $id) { ${results(3)} } }`,
      );
    });
    expect(many!.body.errors).toBeUndefined();
    const data = many!.body.data as Record<string, Record<string, { isCached: boolean; lastRefresh: string }>>;
    const answers = [data.a, data.b].flatMap((experiment) => Object.values(experiment));
    expect(answers).toHaveLength(6);
    expect(new Set(answers.map((answer) => JSON.stringify(answer)))).toEqual(
      new Set([JSON.stringify({ isCached: false, lastRefresh: answers[0].lastRefresh })]),
    );
    expect(manyStatements).toBe(oneStatements);
    // Two charges so far: one more refresh is allowed, the next is refused.
    expect(
      (await ask(`query($p: ID!, $id: Int!) { a: experiment(projectId: $p, id: $id) { ${results(1)} } }`)).body.errors,
    ).toBeUndefined();
    const refused = await ask(`query($p: ID!, $id: Int!) { a: experiment(projectId: $p, id: $id) { ${results(1)} } }`);
    expect(refused.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'TOO_MANY_REQUESTS' }) })]);
  });

  it('does not share a result across a change of the metric within the request', async () => {
    const { world, kit, experiments, projectId } = await worldWithExperiments(1);
    const flagKey = experiments[0].feature_flag_key;
    await kit.send([kit.metric('signup', flagKey, `a-${flagKey}`, 'control')]);
    const metricOf = (event: string) => ({ events: [{ id: event, order: 0 }] });
    const res = await app.graphql(
      `mutation($p: ID!, $id: Int!, $purchase: JSONObject!, $signup: JSONObject!) {
         a: updateExperiment(projectId: $p, id: $id, input: { filters: $purchase }) { results { result } }
         b: updateExperiment(projectId: $p, id: $id, input: { filters: $signup }) { results { result } } }`,
      { p: projectId, id: experiments[0].id, purchase: metricOf('purchase'), signup: metricOf('signup') },
      world.owner.key,
    );
    expect(res.body.errors).toBeUndefined();
    const fresh = await kit.results(experiments[0].id);
    expect(res.body.data.b.results.result).toEqual(fresh.body.result);
    expect(res.body.data.b.results.result).not.toEqual(res.body.data.a.results.result);
  });
});

const onServer = process.env.TEST_TEMPLATE_URL ? describe : describe.skip;

/**
 * Lock waits make a computation last as long as the test wants: another session holds the
 * experiment's row (FOR UPDATE), so storing its result (whose foreign key takes FOR KEY SHARE) waits.
 * PGlite runs one statement at a time, so these run on a real server only.
 */
onServer('work stops when its request ends', () => {
  /** Holds experiment rows in its transaction. */
  let holder: Client;
  /** Watches the app's sessions: outside any transaction, where pg_stat_activity would stay as first read. */
  let monitor: Client;
  let holderPid: number;

  beforeAll(async () => {
    holder = new Client({ connectionString: app.orm.config.get('clientUrl') });
    monitor = new Client({ connectionString: app.orm.config.get('clientUrl') });
    await holder.connect();
    await monitor.connect();
    holderPid = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid;
  });
  afterAll(async () => {
    await holder?.end();
    await monitor?.end();
  });

  /** The app's sessions on this database in a statement or a transaction. */
  const busy = async () =>
    (
      await monitor.query<{ pid: number; state: string; waiting: boolean; query: string }>(
        `select pid, state, wait_event_type = 'Lock' as waiting, query from pg_stat_activity
          where datname = current_database() and pid not in (pg_backend_pid(), $1)
            and state in ('active', 'idle in transaction', 'idle in transaction (aborted)')`,
        [holderPid],
      )
    ).rows;

  /** Polls until `condition` holds (the computation reached its lock, or stopped); fails after 10 s. */
  async function until<T>(what: string, probe: () => Promise<T>, condition: (value: T) => boolean): Promise<T> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const value = await probe();
      if (condition(value)) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}: ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  const lockRows = async (ids: number[]) => {
    await holder.query('begin');
    await holder.query('select id from experiment where id = any($1) for update', [ids]);
  };

  it('regression: when one result fails, the others still run one at a time, and none outlives the response', async () => {
    const { world, experiments, projectId } = await worldWithExperiments(3);
    const ids = experiments.map((e) => e.id);
    await lockRows([ids[0]]);
    try {
      const pending = app.graphql(
        `query($p: ID!) { experiments(projectId: $p, limit: 20) { results { id results { isCached } } } }`,
        { p: projectId },
        world.owner.key,
      );
      // The first computation waits to store its result; the request's others wait behind it.
      const sessions = await until('a computation waits for its lock', busy, (rows) => rows.some((row) => row.waiting));
      expect(sessions).toEqual([
        expect.objectContaining({ waiting: true, query: expect.stringMatching(/^insert into experiment_result_cache/) }),
      ]);
      // That computation fails (as a statement timeout would fail it). Results are nullable (a failed one
      // is null with its reason), so the list is answered whole once the others have run.
      await monitor.query('select pg_cancel_backend($1)', [sessions[0].pid]);
      const res = await pending;
      const byId = new Map(res.body.data!.experiments.results.map((e: any) => [e.id, e.results]));
      expect(ids.map((id) => byId.get(id) === null)).toEqual([true, false, false]);
      expect(res.body.errors).toEqual([
        expect.objectContaining({ message: 'The database took too long to answer. Please try again later.' }),
      ]);
      // Answered: nothing of the request is still running or holding a transaction.
      expect(await busy()).toEqual([]);
    } finally {
      await holder.query('rollback');
    }
    expect(await storedResults(ids)).toBe(2);
  });

  it('a client that disconnects stops the computation it started', async () => {
    const { world, experiments, projectId } = await worldWithExperiments(1);
    const id = experiments[0].id;
    await lockRows([id]);
    const abort = new AbortController();
    let answered: unknown = null;
    try {
      const pending = fetch(`${app.baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${world.owner.key}` },
        body: JSON.stringify({
          query: `query($p: ID!, $id: Int!) { experiment(projectId: $p, id: $id) { results { isCached } } }`,
          variables: { p: projectId, id },
        }),
        signal: abort.signal,
      }).catch((error: unknown) => (answered = error));
      await until('the computation waits for its lock', busy, (rows) => rows.some((row) => row.waiting));
      abort.abort();
      await pending;
      // The statement is cancelled and its transaction rolled back while the holder still holds the row.
      await until('the computation stopped', busy, (rows) => rows.length === 0);
    } finally {
      await holder.query('rollback');
    }
    expect((answered as Error).name).toBe('AbortError');
    expect(await storedResults([id])).toBe(0);
    // Nothing was stored, so the next read computes (and the app still serves).
    const next = await app.graphql(
      `query($p: ID!, $id: Int!) { experiment(projectId: $p, id: $id) { results { isCached } } }`,
      { p: projectId, id },
      world.owner.key,
    );
    expect(next.body).toEqual({ data: { experiment: { results: { isCached: false } } } });
  });
});
