import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MikroORM } from '@mikro-orm/postgresql';
import pino, { type Logger } from 'pino';
import { ormConfig } from '../../mikro-orm.config';
import { createApp } from '../../src/app';
import { RATE_LIMIT_DEFAULTS, type RateLimitConfig } from '../../src/config';
import { answerClientErrors } from '../../src/http/client-errors';
import { TestClock } from './clock';
import { createTestDatabase } from './databases';
import { Factories } from './factories';
import { fetchChecked, prepareContractCheck, type CheckedResponse } from './openapi-contract';

export type ApiResponse<T = any> = CheckedResponse<T>;

export interface RequestOptions {
  method?: string;
  key?: string | null;
  /** JSON-encoded unless a string (sent as is) */
  body?: unknown;
  headers?: Record<string, string>;
  /** false: do not check this answer against the OpenAPI document (see TestAppOptions.checkContract). */
  checkContract?: boolean;
}

export interface TestApp {
  baseUrl: string;
  orm: MikroORM;
  factories: Factories;
  request<T = any>(path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  graphql<T = any>(
    query: string,
    variables?: Record<string, unknown>,
    key?: string | null,
  ): Promise<ApiResponse<{ data?: T; errors?: any[] }>>;
  /** The app's clock: it stands still until the test advances it (what the app remembers expires then). */
  clock: TestClock;
  /** Runs `action` and returns how many SQL statements the app sent meanwhile. */
  countQueries(action: () => Promise<unknown>): Promise<number>;
  /** Runs `action` and returns the SQL statements the app sent meanwhile, whitespace collapsed. */
  sqlDuring(action: () => Promise<unknown>): Promise<string[]>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Commit synchronously, as production does (test/helpers/databases.ts); for tests of query plans. */
  synchronousCommit?: boolean;
  /** Merged over GENEROUS_RATE_LIMITS; a test of the limits sets small ones. */
  rateLimit?: Partial<RateLimitConfig>;
  corsOrigins?: string[];
  /** GET /metrics's bearer token; default none (this host only), whatever METRICS_TOKEN says. */
  metricsToken?: string;
  logger?: Logger;
  statementTimeoutMs?: number;
  /**
   * Check every answer to a documented operation against the OpenAPI document (openapi-contract.ts);
   * default on. Off only for a test that means to receive an undocumented answer.
   */
  checkContract?: boolean;
  /**
   * On a PostgreSQL server, LISTEN for the definitions triggers as a deployed service does (default);
   * false leaves only the change marks read every second (src/db/change-listener.ts), as on the
   * embedded database, to test that they alone suffice.
   */
  notifications?: boolean;
  /** Run the job engine (src/jobs/job-engine.ts), polling every half second; default off. */
  jobs?: boolean;
  /** The app's clock also moves with the system's time (test/helpers/clock.ts); default: it stands still. */
  runningClock?: boolean;
}

/**
 * Rate limits stay on in tests (so every suite runs through the limiter and shows its headers) but
 * far above what any suite sends from one key or address; the environment's RATE_LIMIT_* and
 * REDIS_URL are ignored, so a developer's shell cannot make unrelated suites flaky.
 */
export const GENEROUS_RATE_LIMITS: RateLimitConfig = {
  ...RATE_LIMIT_DEFAULTS,
  burstPerMinute: 1_000_000,
  sustainedPerHour: 1_000_000,
  localEvaluationPerMinute: 1_000_000,
  badCredentialsPerMinute: 1_000_000,
  refreshPerMinute: 1_000_000,
};

/** The real app on a port-0 HTTP server, over this file's own database. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const appOptions = options;
  if (options.checkContract !== false) await prepareContractCheck();
  const database = await createTestDatabase({ synchronousCommit: options.synchronousCommit });
  const orm = await MikroORM.init(ormConfig(database.url, { poolSize: 4, statementTimeoutMs: options.statementTimeoutMs }));
  const clock = new TestClock({ running: options.runningClock });
  const { app, stop } = await createApp({
    orm,
    clock,
    logger: options.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    // On a real server, listen for changes as a deployed service does; the embedded one delivers no notifications.
    changesUrl: process.env.TEST_TEMPLATE_URL && options.notifications !== false ? database.url : undefined,
    rateLimit: { ...GENEROUS_RATE_LIMITS, ...options.rateLimit },
    corsOrigins: options.corsOrigins ?? [],
    metricsToken: options.metricsToken ?? '',
    jobs: options.jobs ? { pollingIntervalSeconds: 0.5 } : false,
  });
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's handler settles every request's errors itself
  const server: Server = createServer(app.callback());
  answerClientErrors(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let statements = 0;
  let recording: string[] | null = null;
  orm.em
    .getConnection()
    .getKnex()
    .on('query', (query: { sql: string }) => {
      statements += 1;
      recording?.push(query.sql.replace(/\s+/g, ' '));
    });

  async function request<T>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers.authorization ??= `Bearer ${options.key}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    return fetchChecked<T>(
      `${baseUrl}${path}`,
      { method: options.method ?? 'GET', headers, body },
      { checkContract: options.checkContract !== false && appOptions.checkContract !== false },
    );
  }

  return {
    baseUrl,
    orm,
    clock,
    factories: new Factories(orm),
    request,
    graphql: (query, variables, key) => request('/graphql', { method: 'POST', key, body: { query, variables } }),
    async countQueries(action) {
      const before = statements;
      await action();
      return statements - before;
    },
    async sqlDuring(action) {
      const seen: string[] = [];
      recording = seen;
      try {
        await action();
      } finally {
        recording = null;
      }
      return seen;
    },
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await stop();
      await orm.close(true);
      await database.drop();
    },
  };
}
