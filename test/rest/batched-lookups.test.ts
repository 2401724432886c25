import { AsyncResource } from 'node:async_hooks';
import { connect, type Socket } from 'node:net';
import type { EntityManager } from '@mikro-orm/postgresql';
import { BatchedLookup } from '../../src/db/batched-lookup';
import { runPrepared } from '../../src/db/prepared';
import { FeatureFlagStore } from '../../src/modules/feature-flag/feature-flag.store';
import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { capture } from '../ingestion/capture-helpers';

/**
 * docs/operations.md ("The route table"): the lookups of concurrent requests that arrive in one turn
 * of the event loop share a statement: the person behind a `/flags` subject, a flag by id or key.
 * Each request still gets its own row (a refused caller none), and a lookup in a transaction is
 * never shared.
 */
let app: TestApp;
let world: World;

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
});
afterAll(() => app.close());

/** Squares of the keys, one statement per run; `calls` records each run's keys. */
function squares(calls: string[][]) {
  return new BatchedLookup<{ key: string; square: number }>(async (em, scope, keys) => {
    calls.push(keys);
    const rows = await runPrepared<{ key: string; square: number }>(
      em,
      { name: 'test_batched_squares', text: 'select k::text as key, k * k + $1 as square from unnest($2::int[]) k where k >= 0' },
      [scope, keys.map(Number)],
    );
    return new Map(rows.map((row) => [row.key, row]));
  }, 4);
}

/** Project names by id, one statement per run; `calls` records each run's keys. */
function projectNames(calls: string[][]) {
  return new BatchedLookup<string>(async (em, _scope, keys) => {
    calls.push(keys);
    const rows = await runPrepared<{ id: number; name: string }>(
      em,
      { name: 'test_batched_project_names', text: 'select id, name from project where id = any($1::int[])' },
      [keys.map(Number)],
    );
    return new Map(rows.map((row) => [String(row.id), row.name]));
  });
}

/** Runs `work` in a transaction that has renamed the world's project to "Renamed inside", then rolls it back. */
async function renamedInside(work: (em: EntityManager) => Promise<void>) {
  const rolledBack = new Error('roll back');
  await app.orm.em
    .fork()
    .transactional(async (em: EntityManager) => {
      await em
        .getConnection()
        .execute('update project set name = ? where id = ?', ['Renamed inside', world.project.id], 'run', em.getTransactionContext());
      await work(em);
      throw rolledBack;
    })
    .catch((error: Error) => expect(error).toBe(rolledBack));
}

describe('BatchedLookup on the real pool', () => {
  it('answers the lookups of one turn with one statement, each its own row, duplicates and misses included', async () => {
    const calls: string[][] = [];
    const lookup = squares(calls);
    const em = app.orm.em.fork();
    const sql = await app.sqlDuring(async () => {
      const rows = await Promise.all(['2', '3', '2', '-1'].map((key) => lookup.get(em, 0, key)));
      expect(rows.map((row) => row?.square)).toEqual([4, 9, 4, undefined]);
    });
    expect(calls).toEqual([['2', '3', '-1']]);
    expect(sql).toHaveLength(1);
  });

  it('keeps scopes apart, sends a full batch at once, and asks again in the next turn', async () => {
    const calls: string[][] = [];
    const lookup = squares(calls);
    const em = app.orm.em.fork();
    const first = await Promise.all([...['1', '2', '3', '4', '5'].map((key) => lookup.get(em, 0, key)), lookup.get(em, 100, '1')]);
    expect(first.map((row) => row?.square)).toEqual([1, 4, 9, 16, 25, 101]);
    expect(calls).toEqual([['1', '2', '3', '4'], ['5'], ['1']]);
    expect((await lookup.get(em, 0, '6'))?.square).toBe(36);
    expect(calls).toHaveLength(4);
  });

  it('fails every lookup of a statement that fails, and only those', async () => {
    const failing = new BatchedLookup<number>(async (em, _scope, keys) => {
      await runPrepared(em, { name: 'test_batched_failing', text: 'select 1 / (k - k) from unnest($1::int[]) k' }, [keys.map(Number)]);
      return new Map();
    });
    const em = app.orm.em.fork();
    const results = await Promise.allSettled([failing.get(em, 0, '1'), failing.get(em, 0, '2')]);
    expect(results.map((result) => result.status === 'rejected' && String(result.reason))).toEqual([
      expect.stringMatching(/division by zero/),
      expect.stringMatching(/division by zero/),
    ]);
    const calls: string[][] = [];
    expect((await squares(calls).get(em, 0, '3'))?.square).toBe(9);
  });

  it('runs a lookup in a transaction alone, on the transaction, where it sees uncommitted writes', async () => {
    const calls: string[][] = [];
    const lookup = projectNames(calls);
    let outside: Promise<string | undefined> | undefined;
    await renamedInside(async (em) => {
      // Asked outside in the same turn: not shared (the embedded database answers it once the transaction ends).
      outside = lookup.get(app.orm.em.fork(), 0, String(world.project.id));
      expect(await lookup.get(em, 0, String(world.project.id))).toBe('Renamed inside');
    });
    expect(await outside).toBe(world.project.name);
    expect(calls).toEqual([[String(world.project.id)], [String(world.project.id)]]);
  });

  it("sends a batch from no caller's context: a lookup beside one asked inside a transaction's scope stays outside it", async () => {
    const names = projectNames([]);
    const id = String(world.project.id);
    // Asked with the app's root EntityManager from outside the transaction, in the same turn.
    const askOutside = AsyncResource.bind(() => names.get(app.orm.em, 2, id));
    let outside: Promise<string | undefined> | undefined;
    let inScope: Promise<string | undefined> | undefined;
    await renamedInside(async () => {
      // A fork of its own (not in the transaction) asks first, inside the transaction's async context.
      inScope = names.get(app.orm.em.fork(), 1, id);
      outside = askOutside();
      // The transaction stays open while PostgreSQL answers them (the embedded database answers
      // both once it ends: its one session is the transaction's).
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    expect([await inScope, await outside]).toEqual([world.project.name, world.project.name]);
  });
});

/** A kept-alive connection that sends one request at a time, written at once, and reads its answer. */
async function connection(baseUrl: string) {
  const { hostname, port } = new URL(baseUrl);
  const socket: Socket = await new Promise((resolve, reject) => {
    const opened = connect(Number(port), hostname, () => resolve(opened)).on('error', reject);
  });
  let received = Buffer.alloc(0);
  let waiting: (() => void) | null = null;
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    waiting?.();
  });
  /** The answer, once whole (Content-Length). */
  const answer = () =>
    new Promise<{ status: number; body: any }>((resolve) => {
      waiting = () => {
        const head = received.indexOf('\r\n\r\n');
        if (head < 0) return;
        const length = Number(/content-length: (\d+)/i.exec(received.subarray(0, head).toString())![1]);
        if (received.length < head + 4 + length) return;
        const text = received.subarray(0, head + 4 + length).toString('utf8');
        received = received.subarray(head + 4 + length);
        waiting = null;
        resolve({ status: Number(text.slice(9, 12)), body: JSON.parse(text.slice(head + 4)) });
      };
      waiting();
    });
  return {
    /** Writes the request now (a POST of `body`, else a GET); the promise is its answer. */
    send(path: string, body?: unknown, key?: string) {
      const text = body === undefined ? '' : JSON.stringify(body);
      const headers = [
        `${body === undefined ? 'GET' : 'POST'} ${path} HTTP/1.1`,
        'Host: test',
        ...(body === undefined ? [] : ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(text)}`]),
        ...(key ? [`Authorization: Bearer ${key}`] : []),
      ];
      socket.write(`${headers.join('\r\n')}\r\n\r\n${text}`);
      return answer();
    },
    close: () => socket.destroy(),
  };
}

/** A flag on for persons whose `plan` is `plan`. */
async function planFlag(key: string, plan: string) {
  const flag = await app.request(`/api/projects/${world.project.id}/feature_flags/`, {
    method: 'POST',
    key: world.owner.key,
    body: {
      key,
      filters: { groups: [{ properties: [{ key: 'plan', type: 'person', value: plan, operator: 'exact' }], rollout_percentage: 100 }] },
    },
  });
  expect(flag.status).toBe(201);
}

describe('concurrent requests', () => {
  it("/flags: concurrent subjects each get their own person's answer, in no more statements than requests", async () => {
    const token = world.project.apiToken;
    await planFlag('pro-only', 'pro');
    const subjects = Array.from({ length: 30 }, (_, i) => ({ id: `batched-${i}`, plan: i % 3 === 0 ? 'pro' : 'free' }));
    const batch = subjects.map(({ id, plan }) => ({ event: '$identify', distinct_id: id, properties: { $set: { plan } } }));
    expect((await capture(app, '/batch/', { api_key: token, batch })).status).toBe(200);

    // One kept-alive connection per subject, each used once first (as SDKs' connections are);
    // then every request is written before the server reads any, as under load.
    const connections = await Promise.all(subjects.map(() => connection(app.baseUrl)));
    for (const each of connections) expect((await each.send('/flags/?v=2', { token, distinct_id: 'warm-up' })).status).toBe(200);
    let answers: Array<{ status: number; body: any }> = [];
    const sql = await app.sqlDuring(async () => {
      answers = await Promise.all(connections.map((each, i) => each.send('/flags/?v=2', { token, distinct_id: subjects[i].id })));
    });
    for (const each of connections) each.close();
    expect(answers.map((res) => [res.status, res.body.flags['pro-only'].enabled])).toEqual(
      subjects.map(({ plan }) => [200, plan === 'pro']),
    );
    expect(sql.length).toBeGreaterThan(0);
    expect(sql.length).toBeLessThan(subjects.length / 2);
    for (const statement of sql) expect(statement).toMatch(/person_distinct_id .* d\.distinct_id = any\(\$2::text\[\]\)/);
  });

  it('retrieves: each caller gets its own flag, a user without access is refused beside one with access, in shared statements', async () => {
    const flags = `/api/projects/${world.project.id}/feature_flags`;
    const created = await Promise.all(
      ['one', 'two', 'three'].map((key) => app.request(flags, { method: 'POST', key: world.owner.key, body: { key: `batched-${key}` } })),
    );
    const outsider = await app.factories.member(null);
    const asked = [
      ...created.map((res) => ({ id: res.body.id, key: world.owner.key })),
      { id: created[0].body.id, key: outsider.key },
      { id: 999999999, key: world.owner.key },
    ];
    const connections = await Promise.all(asked.map(() => connection(app.baseUrl)));
    // Each connection used once first, which also remembers the keys.
    for (const [i, each] of connections.entries())
      expect((await each.send(`${flags}/${asked[i].id}/`, undefined, asked[i].key)).status).not.toBe(401);
    let reads: Array<{ status: number; body: any }> = [];
    const sql = await app.sqlDuring(async () => {
      reads = await Promise.all(connections.map((each, i) => each.send(`${flags}/${asked[i].id}/`, undefined, asked[i].key)));
    });
    for (const each of connections) each.close();
    expect(reads.map((res) => [res.status, res.body.key ?? res.body.code])).toEqual([
      [200, 'batched-one'],
      [200, 'batched-two'],
      [200, 'batched-three'],
      [403, 'permission_denied'],
      [404, 'not_found'],
    ]);
    // The owner's standing is remembered since the first round (src/app-caches.ts), the outsider's
    // looked up again; one read for the four flags the owner asked.
    const kinds = sql.map((statement) =>
      /from project p/.test(statement) ? 'access' : /from feature_flag f/.test(statement) ? 'flags' : statement,
    );
    expect(kinds.sort()).toEqual(['access', 'flags']);
  });

  it('by key: a key PostgreSQL cannot store names no flag, and does not fail the read it would share a statement with', async () => {
    const flags = `/api/projects/${world.project.id}/feature_flags`;
    expect((await app.request(flags, { method: 'POST', key: world.owner.key, body: { key: 'batched-by-key' } })).status).toBe(201);
    const em = app.orm.em.fork();
    const [bad, good] = await Promise.all([
      FeatureFlagStore.byKey(em, world.project.id, 'nul\u0000key'),
      FeatureFlagStore.byKey(em, world.project.id, 'batched-by-key'),
    ]);
    expect([bad, good?.flag.key]).toEqual([null, 'batched-by-key']);
  });

  it('/flags: a distinct id with a lone surrogate finds the person capture stored for it; one longer than any stored id is looked up nowhere', async () => {
    const token = world.project.apiToken;
    await planFlag('team-only', 'team');
    // JSON.stringify writes a lone surrogate as its escape, as a browser's SDK would.
    const lone = 'lone-\ud800-surrogate';
    const batch = [{ event: '$identify', distinct_id: lone, properties: { $set: { plan: 'team' } } }];
    expect((await capture(app, '/batch/', JSON.stringify({ api_key: token, batch }))).status).toBe(200);
    const ask = (distinctId: string) =>
      app.request('/flags/?v=2', { method: 'POST', body: JSON.stringify({ token, distinct_id: distinctId }) });
    expect((await ask(lone)).body.flags['team-only'].enabled).toBe(true);

    const longest = 'é'.repeat(200); // as long as capture keeps
    expect(await app.sqlDuring(async () => expect((await ask(longest)).status).toBe(200))).toHaveLength(1);
    const sql = await app.sqlDuring(async () => {
      const res = await ask('é'.repeat(201));
      expect([res.status, res.body.flags['team-only'].enabled, res.body.errorsWhileComputingFlags]).toEqual([200, false, false]);
    });
    expect(sql).toEqual([]);
  });
});
