import { StartRefusal } from './start-refusal';

/** Configuration from the environment, read once at start. */
export interface Config {
  port: number;
  host: string;
  databaseUrl?: string;
  /** Create the database DATABASE_URL names if missing: `--create-database` or CREATE_DATABASE=true. */
  createDatabase: boolean;
  dataDir: string;
  trustProxy: boolean;
  logLevel: string;
  rateLimit: RateLimitConfig;
  /** Origins the admin API answers CORS for; empty = CORS off (the capture endpoints answer their own). */
  corsOrigins: string[];
  /** PostgreSQL `statement_timeout` of every pooled connection, ms; 0 = none. */
  statementTimeoutMs: number;
  /** Node's `server.requestTimeout` (receiving the whole request), ms; 0 = none. */
  requestTimeoutMs: number;
  /** Node's `server.headersTimeout` (receiving the headers), ms; at most requestTimeoutMs. */
  headersTimeoutMs: number;
  /** METRICS_TOKEN: required by GET /metrics when set; unset = this host only. */
  metricsToken?: string;
}

/** docs/rest-api.md §1.6, plus a bucket of our own for failed credentials per client address. */
export interface RateLimitConfig {
  /** RATE_LIMIT_ENABLED=false turns every bucket off, and with them the RateLimit-* headers. */
  enabled: boolean;
  /** Personal-key requests per key per 60 s (local evaluation excepted). */
  burstPerMinute: number;
  /** Personal-key requests per key per 3600 s (local evaluation excepted). */
  sustainedPerHour: number;
  /** Local-evaluation requests per project per 60 s, any credential. */
  localEvaluationPerMinute: number;
  /** Failed credentials (unknown key, token or secret) per client IP per 60 s; past it, 429 instead of 401. */
  badCredentialsPerMinute: number;
  /** Results recomputed on demand (`refresh`) per personal key per 60 s (ours: docs/experiment-results.md). */
  refreshPerMinute: number;
  /** Share the budgets between processes through Redis; unset = each process counts in memory. */
  redisUrl?: string;
  /** Prefix of every Redis key the limiter writes. */
  redisPrefix: string;
}

export const RATE_LIMIT_DEFAULTS: RateLimitConfig = {
  enabled: true,
  burstPerMinute: 480,
  sustainedPerHour: 4800,
  localEvaluationPerMinute: 600,
  badCredentialsPerMinute: 100,
  refreshPerMinute: 10,
  redisPrefix: 'flagship:ratelimit:',
};

const DEFAULT_STATEMENT_TIMEOUT_MS = 15_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;

/** A whole number from the environment: the default when unset or blank, else refused loudly. */
function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max?: number): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || !Number.isSafeInteger(value) || (max !== undefined && value > max)) {
    const range = max === undefined ? `of at least ${min}` : `from ${min} to ${max}`;
    throw new StartRefusal(`${name} must be a whole number ${range}, got "${text}"`);
  }
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const text = env[name]?.trim().toLowerCase();
  if (!text) return fallback;
  if (['true', '1', 'yes', 'on'].includes(text)) return true;
  if (['false', '0', 'no', 'off'].includes(text)) return false;
  throw new StartRefusal(`${name} must be true or false, got "${env[name]}"`);
}

export function readRateLimitConfig(env: NodeJS.ProcessEnv = process.env): RateLimitConfig {
  return {
    enabled: flag(env, 'RATE_LIMIT_ENABLED', RATE_LIMIT_DEFAULTS.enabled),
    burstPerMinute: integer(env, 'RATE_LIMIT_BURST_PER_MINUTE', RATE_LIMIT_DEFAULTS.burstPerMinute, 1),
    sustainedPerHour: integer(env, 'RATE_LIMIT_SUSTAINED_PER_HOUR', RATE_LIMIT_DEFAULTS.sustainedPerHour, 1),
    localEvaluationPerMinute: integer(env, 'RATE_LIMIT_LOCAL_EVALUATION_PER_MINUTE', RATE_LIMIT_DEFAULTS.localEvaluationPerMinute, 1),
    badCredentialsPerMinute: integer(env, 'RATE_LIMIT_BAD_CREDENTIALS_PER_MINUTE', RATE_LIMIT_DEFAULTS.badCredentialsPerMinute, 1),
    refreshPerMinute: integer(env, 'RATE_LIMIT_REFRESH_PER_MINUTE', RATE_LIMIT_DEFAULTS.refreshPerMinute, 1),
    redisUrl: env.REDIS_URL?.trim() || undefined,
    redisPrefix: env.RATE_LIMIT_REDIS_PREFIX?.trim() || RATE_LIMIT_DEFAULTS.redisPrefix,
  };
}

/** CORS_ORIGINS: a comma list of origins (`https://admin.example.com`), or `*`; unset = none. */
export function readCorsOrigins(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.CORS_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter(Boolean);
}

/** METRICS_TOKEN: the bearer token GET /metrics requires; unset = served to this host only (docs/operations.md). */
export function readMetricsToken(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.METRICS_TOKEN?.trim() || undefined;
}

export function readStatementTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  return integer(env, 'STATEMENT_TIMEOUT_MS', DEFAULT_STATEMENT_TIMEOUT_MS, 0);
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** LOG_LEVEL: one of pino's levels (default info); anything else is refused before the logger is made. */
function logLevel(env: NodeJS.ProcessEnv): string {
  const text = env.LOG_LEVEL?.trim().toLowerCase();
  if (!text) return 'info';
  if (!LOG_LEVELS.includes(text)) throw new StartRefusal(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  return text;
}

/** The start command's arguments: `--create-database` is the only one. */
export function readConfig(env: NodeJS.ProcessEnv = process.env, argv: readonly string[] = []): Config {
  const requestTimeoutMs = integer(env, 'REQUEST_TIMEOUT_MS', DEFAULT_REQUEST_TIMEOUT_MS, 0);
  const headersTimeoutMs = integer(env, 'HEADERS_TIMEOUT_MS', DEFAULT_HEADERS_TIMEOUT_MS, 0);
  return {
    port: integer(env, 'PORT', 8000, 0, 65535),
    host: env.HOST ?? '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    createDatabase: argv.includes('--create-database') || flag(env, 'CREATE_DATABASE', false),
    dataDir: env.DATA_DIR ?? '.data',
    trustProxy: flag(env, 'TRUST_PROXY', false),
    logLevel: logLevel(env),
    rateLimit: readRateLimitConfig(env),
    corsOrigins: readCorsOrigins(env),
    metricsToken: readMetricsToken(env),
    statementTimeoutMs: readStatementTimeoutMs(env),
    requestTimeoutMs,
    // Node refuses a headers timeout above the request timeout.
    headersTimeoutMs: requestTimeoutMs > 0 && headersTimeoutMs > requestTimeoutMs ? requestTimeoutMs : headersTimeoutMs,
  };
}
