import { Writable } from 'node:stream';
import { Client } from 'pg';
import pino from 'pino';
import { translate } from '../../src/errors';
import { statementTimeoutDriverOptions } from '../../src/db/statement-timeout';
import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * STATEMENT_TIMEOUT_MS: PostgreSQL cancels a statement that runs too long, and the request
 * answers 503, not 500. A real server is needed to see it happen (PGlite has no statement
 * timeouts, and pglite-socket ignores startup parameters); the embedded run checks the mapping.
 */
const TIMEOUT_BODY = {
  type: 'server_error',
  code: 'service_unavailable',
  detail: 'The database took too long to answer. Please try again later.',
  attr: null,
};

describe('the mapping', () => {
  it('turns query_canceled (57014) and lock_not_available (55P03) into 503 service_unavailable', () => {
    for (const code of ['57014', '55P03']) {
      const error = translate(Object.assign(new Error('canceling statement due to statement timeout'), { code }));
      expect(error.status).toBe(503);
      expect(error.toJSON()).toEqual(TIMEOUT_BODY);
    }
    expect(translate(Object.assign(new Error('x'), { code: '22012' })).status).toBe(500);
  });

  it('sends statement_timeout as a connection parameter, none for 0', () => {
    expect(statementTimeoutDriverOptions(15000)).toEqual({ connection: { statement_timeout: 15000 } });
    expect(statementTimeoutDriverOptions(0)).toEqual({});
  });
});

const onServer = process.env.TEST_TEMPLATE_URL ? describe : describe.skip;

onServer('on PostgreSQL', () => {
  let app: TestApp;
  let world: World;
  let flags: string;
  let holder: Client;
  const lines: Array<{ level: number; msg: string }> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as { level: number; msg: string });
      done();
    },
  });

  beforeAll(async () => {
    app = await startTestApp({ statementTimeoutMs: 300, logger: pino({ level: 'warn' }, sink) });
    world = await app.factories.world();
    flags = `/api/projects/${world.project.id}/feature_flags`;
    holder = new Client({ connectionString: app.orm.config.get('clientUrl') });
    await holder.connect();
  });
  afterAll(async () => {
    await holder?.end();
    await app?.close();
  });

  it('sets the timeout on every pooled connection', async () => {
    const rows = await app.orm.em.getConnection().execute('show statement_timeout');
    expect(rows[0].statement_timeout).toBe('300ms');
  });

  it('answers a statement that outlives it with 503, on REST and GraphQL', async () => {
    expect((await app.request(flags, { key: world.owner.key })).status).toBe(200);
    await holder.query('begin');
    try {
      // Another session holds the table: the service's read waits, then PostgreSQL cancels it.
      await holder.query('lock table feature_flag in access exclusive mode');
      const started = Date.now();
      const rest = await app.request(flags, { key: world.owner.key });
      expect(rest.status).toBe(503);
      expect(rest.body).toEqual(TIMEOUT_BODY);
      expect(Date.now() - started).toBeLessThan(5000);
      const graphql = await app.graphql(
        `query ($p: ID!) { featureFlags(projectId: $p) { count } }`,
        { p: String(world.project.id) },
        world.owner.key,
      );
      expect(graphql.body.errors![0]).toMatchObject({
        message: TIMEOUT_BODY.detail,
        extensions: { type: 'server_error', reason: 'service_unavailable' },
      });
    } finally {
      await holder.query('rollback');
    }
    expect((await app.request(flags, { key: world.owner.key })).status).toBe(200);
    // A refusal under load, logged as one (warn), not as a defect of the service (error).
    expect(lines.filter((line) => line.msg === 'database timeout').map((line) => line.level)).toEqual([40, 40]);
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  });
});
