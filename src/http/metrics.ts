import { timingSafeEqual } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { authErrors } from '../errors';
import { metricsDocs } from '../openapi/endpoint-docs';
import type { RouteAuth } from '../rest/route';
import { PLAIN, type Endpoint } from './route-policy';

/**
 * Prometheus metrics (docs/operations.md). One registry per app, so apps built side by side (tests)
 * do not share counts. A request costs one Map lookup and a few additions: labels are the method,
 * the route's pattern (`/api/projects/:project_id/feature_flags/:id`, never the raw path) and the
 * status, all from small fixed sets. The pool, the definitions cache and the process are read only
 * when /metrics is scraped.
 */

/** What Node's HTTP parser accepts is already bounded; anything outside the usual few is labelled OTHER. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const UNMATCHED = '(unmatched)';

/** The label for a request's route: the pattern of the route-table row that took it (src/http/dispatch.ts), else `(unmatched)`. */
export function routeLabel(ctx: Context): string {
  return typeof ctx.state.routeLabel === 'string' ? ctx.state.routeLabel : UNMATCHED;
}

/** The knex (tarn) pool's counts; null before the pool exists. */
export interface PoolUsage {
  used: number;
  free: number;
  pendingAcquires: number;
  pendingCreates: number;
  max: number;
}

export interface CacheCounts {
  hits: number;
  misses: number;
  /** Loads while cached copies may not be served (the change listener is disconnected). */
  bypassed: number;
}

export interface MetricsSources {
  pool(): PoolUsage | null;
  definitionsCache(): CacheCounts;
}

/** The knex pool behind a MikroORM connection (tarn.js), read at scrape time. */
export function poolUsageOf(knex: unknown): PoolUsage | null {
  const pool = (knex as { client?: { pool?: Record<string, unknown> } } | undefined)?.client?.pool as
    { numUsed(): number; numFree(): number; numPendingAcquires(): number; numPendingCreates(): number; max: number } | undefined;
  if (!pool || typeof pool.numUsed !== 'function') return null;
  return {
    used: pool.numUsed(),
    free: pool.numFree(),
    pendingAcquires: pool.numPendingAcquires(),
    pendingCreates: pool.numPendingCreates(),
    max: pool.max,
  };
}

const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** One method, route and status: plain numbers, written by every request and read when scraped. */
interface RequestSeries {
  method: string;
  route: string;
  status: string;
  /** Per bucket (not cumulative); the last one is +Inf. */
  buckets: number[];
  count: number;
  sum: number;
}

interface MetricValue {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/**
 * The request counter and latency histogram, kept as plain numbers per series and shown to the
 * registry in its own format at scrape time. prom-client's Counter and Histogram hash their labels on
 * every increment (about a microsecond per request); a Map lookup and a few additions cost a tenth of it.
 */
class RequestMetrics {
  readonly #series = new Map<string, RequestSeries>();

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.#series.get(key);
    if (!series) {
      series = { method, route, status: String(status), buckets: new Array<number>(DURATION_BUCKETS.length + 1).fill(0), count: 0, sum: 0 };
      this.#series.set(key, series);
    }
    let bucket = 0;
    while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]) bucket += 1;
    series.buckets[bucket] += 1;
    series.count += 1;
    series.sum += seconds;
  }

  /** flagship_http_requests_total{method, route, status}. */
  readonly counter = {
    name: 'flagship_http_requests_total',
    get: async () => ({
      name: 'flagship_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status.',
      type: 'counter',
      values: [...this.#series.values()].map((series): MetricValue => ({
        labels: { method: series.method, route: series.route, status: series.status },
        value: series.count,
      })),
    }),
  };

  /** flagship_http_request_duration_seconds{method, route}: the statuses of a route summed. */
  readonly histogram = {
    name: 'flagship_http_request_duration_seconds',
    get: async () => {
      const byRoute = new Map<string, { method: string; route: string; buckets: number[]; count: number; sum: number }>();
      for (const series of this.#series.values()) {
        const key = `${series.method} ${series.route}`;
        let total = byRoute.get(key);
        if (!total) {
          total = {
            method: series.method,
            route: series.route,
            buckets: new Array<number>(DURATION_BUCKETS.length + 1).fill(0),
            count: 0,
            sum: 0,
          };
          byRoute.set(key, total);
        }
        series.buckets.forEach((n, i) => (total!.buckets[i] += n));
        total.count += series.count;
        total.sum += series.sum;
      }
      const values: MetricValue[] = [];
      const name = 'flagship_http_request_duration_seconds';
      for (const total of byRoute.values()) {
        const labels = { method: total.method, route: total.route };
        let cumulative = 0;
        DURATION_BUCKETS.forEach((le, i) => {
          cumulative += total.buckets[i];
          values.push({ labels: { le, ...labels }, value: cumulative, metricName: `${name}_bucket` });
        });
        values.push({ labels: { le: '+Inf', ...labels }, value: total.count, metricName: `${name}_bucket` });
        values.push({ labels, value: total.sum, metricName: `${name}_sum` });
        values.push({ labels, value: total.count, metricName: `${name}_count` });
      }
      return {
        name,
        help: 'Time from receiving a request to deciding its answer, by method and route pattern.',
        type: 'histogram',
        values,
      };
    },
  };
}

/**
 * Node's own metrics (process_*, nodejs_*: CPU, memory, heap, event-loop delay, GC, handles) under
 * their usual names, so stock dashboards apply. They describe the process, so they are collected
 * once per process (their event-loop monitor keeps a timer), however many apps it builds.
 */
let processRegistry: Registry | null = null;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export class Metrics {
  readonly registry = new Registry();
  readonly #requests = new RequestMetrics();
  readonly #ingestedEvents: Counter;
  readonly #ingestedBatches: Counter;

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    // Registered as the registry's metric interface (name and get()), which prom-client's own classes implement.
    this.registry.registerMetric(this.#requests.counter as unknown as Counter);
    this.registry.registerMetric(this.#requests.histogram as unknown as Histogram);
    new Gauge({
      name: 'flagship_db_pool_connections',
      help: 'Database pool connections: in use by a request, or idle.',
      labelNames: ['state'],
      registers,
      collect() {
        const usage = sources.pool();
        this.set({ state: 'used' }, usage?.used ?? 0);
        this.set({ state: 'idle' }, usage?.free ?? 0);
      },
    });
    new Gauge({
      name: 'flagship_db_pool_pending',
      help: 'Requests waiting for a pool connection (acquire), and connections being opened (create).',
      labelNames: ['kind'],
      registers,
      collect() {
        const usage = sources.pool();
        this.set({ kind: 'acquire' }, usage?.pendingAcquires ?? 0);
        this.set({ kind: 'create' }, usage?.pendingCreates ?? 0);
      },
    });
    new Gauge({
      name: 'flagship_db_pool_max',
      help: 'The most connections the pool opens.',
      registers,
      collect() {
        this.set(sources.pool()?.max ?? 0);
      },
    });
    new Counter({
      name: 'flagship_definitions_cache_requests_total',
      help: 'Local-evaluation definitions asked of the cache: hit, miss (built and cached), or bypass (built, not cacheable while changes cannot be heard).',
      labelNames: ['result'],
      registers,
      collect() {
        const counts = sources.definitionsCache();
        this.reset();
        this.inc({ result: 'hit' }, counts.hits);
        this.inc({ result: 'miss' }, counts.misses);
        this.inc({ result: 'bypass' }, counts.bypassed);
      },
    });
    this.#ingestedEvents = new Counter({
      name: 'flagship_ingestion_events_total',
      help: 'Events acknowledged by the capture endpoints (stored, or already stored under the same uuid).',
      registers,
    });
    this.#ingestedBatches = new Counter({
      name: 'flagship_ingestion_requests_total',
      help: 'Capture requests acknowledged (refused ones are in flagship_http_requests_total by status).',
      registers,
    });
  }

  /** Called by the access log once a request's answer is decided. */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.#requests.observe(METHODS.has(method) ? method : 'OTHER', route, status, seconds);
  }

  /** Called by the capture endpoints once a request's events are committed. */
  readonly ingested = (events: number): void => {
    this.#ingestedBatches.inc();
    this.#ingestedEvents.inc(events);
  };

  /** The text format, for GET /metrics: the service's metrics, then the process's. */
  async render(): Promise<string> {
    return `${await this.registry.metrics()}\n${await processMetrics().metrics()}`;
  }
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * GET /metrics. With METRICS_TOKEN set, the scraper sends `Authorization: Bearer <token>` and may
 * be anywhere. Without it, only this host may scrape: the socket's peer is a loopback address and
 * the request names no forwarding (a reverse proxy on the same host would otherwise make every
 * client look local).
 */
function metricsHandler(metrics: Metrics, token: string | undefined): Middleware {
  const expected = token ? Buffer.from(`Bearer ${token}`) : null;
  return async (ctx) => {
    if (expected) {
      const given = Buffer.from(ctx.get('Authorization'));
      if (!given.length) throw authErrors.notAuthenticated();
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw authErrors.incorrectCredentials();
    } else {
      const forwarded = ctx.get('X-Forwarded-For') || ctx.get('Forwarded') || ctx.get('X-Real-Ip');
      if (forwarded || !LOOPBACK.test(ctx.req.socket.remoteAddress ?? '')) throw authErrors.metricsLocalOnly();
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.render();
  };
}

/** The metrics token, or this host only: checked by the handler (docs/operations.md). */
const metricsAccess: RouteAuth = { describe: 'METRICS_TOKEN as a bearer token, or this host only', check: async () => undefined };

export const metricsEndpoints: Endpoint[] = [
  {
    path: '/metrics',
    methods: ['GET'],
    auth: metricsAccess,
    policy: PLAIN,
    create: ({ metrics, metricsToken }) => metricsHandler(metrics, metricsToken),
    docs: [metricsDocs],
  },
];
