import cluster from 'node:cluster';
import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import { authenticate, parseId, type Caller } from '../auth/access';
import { accessLocalEvaluation } from '../auth/local-evaluation-access';
import type { Clock } from '../clock';
import type { RateLimitConfig } from '../config';
import type { AppContext, RefreshBudget } from '../context';
import { AppError, requestErrors } from '../errors';
import { OrganizationStore } from '../modules/organization/organization.store';
import { ProjectStore } from '../modules/project/project.store';
import { isUuid } from '../validation/fields';
import type { RoutePolicy } from './route-policy';
import { PrimarySlidingWindowStore } from './primary-sliding-window';
import { MemorySlidingWindowStore, type BucketSpec, type HitResult, type SlidingWindowStore } from './sliding-window';

/**
 * Rate limits (docs/rest-api.md §1.6, docs/README.md decision 14):
 * - burst and sustained: requests authenticated with a personal API key, per key, local evaluation excepted;
 * - local evaluation: the three SDK paths, per project, any credential;
 * - SPEC-GAP (ours): failed credentials per client IP, so a flood of invalid keys meets 429 instead
 *   of costing a key lookup each. Requests without any credential stay unlimited (docs/rest-api.md §1.6).
 */
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

interface Bucket {
  name: string;
  limit: number;
  windowMs: number;
}

interface Policy {
  buckets: Bucket[];
  /** The RateLimit-Policy header: `480;w=60, 4800;w=3600`. */
  header: string;
}

const policyOf = (buckets: Bucket[]): Policy => ({
  buckets,
  header: buckets.map((bucket) => `${bucket.limit};w=${bucket.windowMs / 1000}`).join(', '),
});

/** A failed credential (unknown key, secret or token), as opposed to none at all or a refusal after authentication. */
const isBadCredential = (error: unknown) => error instanceof AppError && error.status === 401 && error.code === 'authentication_failed';

export interface RateLimiter {
  /** The stage a row's `limit` policy adds to its pipeline (src/http/dispatch.ts); null: nothing to do. */
  stage(policy: RoutePolicy): Middleware | null;
  /** Charges one `refresh` of results to the caller's key (see refreshPolicy). */
  refresh: RefreshBudget;
  close(): Promise<void>;
}

/** A limiter with nothing to do: RATE_LIMIT_ENABLED=false (no buckets, no headers). */
const disabled: RateLimiter = { stage: () => null, refresh: async () => undefined, close: async () => undefined };

export interface RateLimiterOptions {
  config: RateLimitConfig;
  logger: Logger;
  makeContext: (koa: Context) => AppContext;
  /** The app's clock: the windows in this process (memory, or the fallback beside Redis or the primary) run on its monotonic time. */
  clock: Clock;
}

/** In memory per process, in the cluster's primary for N workers, or shared through Redis with REDIS_URL. */
export async function createRateLimiter({ config, logger, makeContext, clock }: RateLimiterOptions): Promise<RateLimiter> {
  if (!config.enabled) return disabled;
  const windowTime = () => clock.monotonic();
  let store: SlidingWindowStore;
  if (config.redisUrl) {
    // Loaded only when configured: the Redis client is not needed (nor started) otherwise.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { RedisSlidingWindowStore } = require('./redis-sliding-window') as typeof import('./redis-sliding-window');
    const redis = new RedisSlidingWindowStore(config.redisUrl, logger, windowTime);
    if (!(await redis.ready())) logger.warn('rate limits: Redis not reachable at start; counting in this process until it is');
    store = redis;
  } else if (cluster.isWorker) {
    // Several workers without Redis: the cluster's primary holds the windows (src/cluster/primary.ts).
    store = new PrimarySlidingWindowStore(logger, { now: windowTime });
  } else {
    store = new MemorySlidingWindowStore(windowTime);
  }
  const prefix = config.redisPrefix;
  const keyPolicy = policyOf([
    { name: 'burst', limit: config.burstPerMinute, windowMs: MINUTE_MS },
    { name: 'sustained', limit: config.sustainedPerHour, windowMs: HOUR_MS },
  ]);
  const localPolicy = policyOf([{ name: 'local_evaluation', limit: config.localEvaluationPerMinute, windowMs: MINUTE_MS }]);
  const badCredentialPolicy = policyOf([{ name: 'bad_credentials', limit: config.badCredentialsPerMinute, windowMs: MINUTE_MS }]);
  // SPEC-GAP (ours): a refresh recomputes a result however recently it was stored, so each key has a
  // small budget of them (docs/experiment-results.md). Charged by the service when it is about to
  // recompute, per field: a request asking for more refreshes than remain gets the refusal on those fields.
  const refreshPolicy = policyOf([{ name: 'refresh', limit: config.refreshPerMinute, windowMs: MINUTE_MS }]);

  // The subject in braces is a Redis Cluster hash tag: one request's buckets live in one slot.
  const hit = (policy: Policy, subject: string) =>
    store.hit(
      policy.buckets.map((bucket): BucketSpec => ({
        key: `${prefix}{${subject}}:${bucket.name}`,
        limit: bucket.limit,
        windowMs: bucket.windowMs,
      })),
    );

  /** Records a failed credential for the client's address; past the budget, the 429 to answer instead of the 401. */
  async function badCredential(koa: Context, error: unknown): Promise<AppError | null> {
    if (!isBadCredential(error)) return null;
    const result = await hit(badCredentialPolicy, `ip:${koa.ip}`);
    return result.admitted ? null : throttled(koa, badCredentialPolicy, result);
  }

  /** The SDK polling rows (§4.5): the project's budget, whatever the credential. */
  const localEvaluation: Middleware = async (koa, next) => {
    const ctx = makeContext(koa);
    // Unauthenticated requests are not limited (§1.6); they are answered 401 wherever a key is needed.
    if (!ctx.credential) return next();
    // SPEC-GAP: docs/rest-api.md §1.3 puts the rate limit before the key's project/scope/membership checks; here the
    // per-project SDK budget is charged only once the credential may read the project, or anyone
    // holding any key could spend (and so stop) another project's SDK polling.
    let projectId: number;
    try {
      projectId = (await accessLocalEvaluation(ctx, koa.params?.project_id)).projectId;
    } catch (error) {
      throw (await badCredential(koa, error)) ?? error;
    }
    const result = await hit(localPolicy, `project:${projectId}`);
    setHeaders(koa, localPolicy, result);
    if (!result.admitted) throw throttled(koa, localPolicy, result);
    return next();
  };

  /** Rows a personal key calls: its burst and sustained budgets; failed credentials per address. */
  const byKey =
    (refuse: (koa: Context, error: AppError) => void): Middleware =>
    async (koa, next) => {
      const ctx = makeContext(koa);
      if (!ctx.credential) return next();
      let caller: Caller;
      try {
        caller = await authenticate(ctx);
      } catch (error) {
        const refusal = await badCredential(koa, error);
        if (refusal) return refuse(koa, refusal);
        // The route answers (its own 401, or nothing at all for a path that needs no key).
        return next();
      }
      const result = await hit(keyPolicy, `key:${caller.key.id}`);
      setHeaders(koa, keyPolicy, result);
      if (!result.admitted) {
        // §1.3: an unknown project or organization in the path (404) answers before the rate limit (429).
        await requirePathObject(ctx, caller, koa.params ?? {});
        return refuse(koa, throttled(koa, keyPolicy, result));
      }
      return next();
    };

  const byKeyRest = byKey(refuseRest);
  const byKeyGraphql = byKey(refuseGraphql);

  /** OFREP (docs/openfeature.md): the public token is as unlimited as on `/flags`; a personal key pays its budgets. */
  const byKeyUnlessPublicToken: Middleware = (koa, next) =>
    makeContext(koa).credential?.value.startsWith('phc_') ? next() : byKeyRest(koa, next);

  const refresh: RefreshBudget = async (caller) => {
    const result = await hit(refreshPolicy, `key:${caller.key.id}`);
    if (!result.admitted) throw requestErrors.refreshThrottled(config.refreshPerMinute, seconds(result.buckets[0].waitMs));
  };

  return {
    stage: ({ limit, refusals }) => {
      if (limit === 'key') return refusals === 'graphql' ? byKeyGraphql : byKeyRest;
      if (limit === 'key_unless_public_token') return byKeyUnlessPublicToken;
      return limit === 'local_evaluation' ? localEvaluation : null;
    },
    refresh,
    close: () => store.close(),
  };
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * RateLimit-Limit / -Remaining (after this request) / -Reset (seconds until one more request is
 * admitted, 0 while not exhausted) of the bucket with the fewest remaining (tie: the shorter window).
 */
function setHeaders(koa: Context, policy: Policy, result: HitResult) {
  let chosen = 0;
  const remaining = policy.buckets.map((bucket, i) => Math.max(0, bucket.limit - result.buckets[i].count));
  for (let i = 1; i < policy.buckets.length; i += 1) {
    const fewer = remaining[i] < remaining[chosen];
    const tie = remaining[i] === remaining[chosen] && policy.buckets[i].windowMs < policy.buckets[chosen].windowMs;
    if (fewer || tie) chosen = i;
  }
  koa.set('RateLimit-Limit', String(policy.buckets[chosen].limit));
  koa.set('RateLimit-Remaining', String(remaining[chosen]));
  koa.set('RateLimit-Reset', String(remaining[chosen] > 0 ? 0 : seconds(result.buckets[chosen].waitMs)));
  koa.set('RateLimit-Policy', policy.header);
}

/** 429: Retry-After is when the exceeded bucket (the latest, if several) admits again. */
function throttled(koa: Context, policy: Policy, result: HitResult): AppError {
  let waitMs = 0;
  policy.buckets.forEach((bucket, i) => {
    if (result.buckets[i].count >= bucket.limit) waitMs = Math.max(waitMs, result.buckets[i].waitMs);
  });
  setHeaders(koa, policy, result);
  return requestErrors.throttled(seconds(waitMs));
}

/** REST refusals go to the error middleware. */
function refuseRest(_koa: Context, error: AppError): void {
  throw error;
}

/**
 * GraphQL answers as GraphQL (docs/README.md decision 3): status 429,
 * `{errors: [{message, extensions: {code: TOO_MANY_REQUESTS, type, reason, attr}}]}`.
 */
function refuseGraphql(koa: Context, error: AppError): void {
  koa.set(error.headers);
  koa.status = error.status;
  koa.body = {
    errors: [{ message: error.detail, extensions: { code: error.graphqlCode, type: error.type, reason: error.code, attr: error.attr } }],
  };
}

/** For a throttled key: the path's project or organization must exist, else the route's 404 answers first. */
async function requirePathObject(ctx: AppContext, caller: Caller, params: Record<string, string>): Promise<void> {
  if (params.project_id !== undefined) {
    const ref = params.project_id;
    const id = ref === '@current' ? caller.user.currentProjectId : parseId(ref);
    if (!id || !(await ProjectStore.exists(ctx.em, id))) throw requestErrors.projectNotFound();
    return;
  }
  if (params.organization_id !== undefined) {
    const ref = params.organization_id;
    let found = false;
    if (ref === '@current') {
      if (caller.user.currentProjectId) found = await ProjectStore.exists(ctx.em, caller.user.currentProjectId);
    } else if (isUuid(ref)) {
      found = await OrganizationStore.exists(ctx.em, ref.toLowerCase());
    }
    if (!found) throw requestErrors.organizationNotFound();
  }
}
