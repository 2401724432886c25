/**
 * Webhook settings, read from the environment when used (so a test can set them before it starts
 * an app, and a service process reads its own): docs/webhooks.md "Operator settings".
 */

/** WEBHOOKS_ALLOW_PRIVATE_URLS=true admits loopback, private and link-local receivers (tests; closed networks). */
export function allowPrivateUrls(env: NodeJS.ProcessEnv = process.env): boolean {
  return ['true', '1', 'yes', 'on'].includes((env.WEBHOOKS_ALLOW_PRIVATE_URLS ?? '').trim().toLowerCase());
}

/** Seconds between attempts: 5 s, 30 s, 2 min, 10 min, 1 h, then every 2 h, until the window closes. */
const DEFAULT_RETRY_DELAYS_SECONDS = [5, 30, 120, 600, 3600, 7200];
const DEFAULT_RETRY_WINDOW_SECONDS = 24 * 3600;

function seconds(text: string | undefined, name: string): number[] | null {
  if (!text?.trim()) return null;
  const parts = text.split(',').map((part) => part.trim());
  if (parts.length > 50 || parts.some((part) => !/^\d{1,7}(\.\d{1,3})?$/.test(part) || Number(part) <= 0)) {
    throw new Error(`${name} must be a comma-separated list of positive numbers of seconds, got "${text}"`);
  }
  return parts.map(Number);
}

/**
 * WEBHOOKS_RETRY_DELAYS (e.g. `5,30,120`; the last repeats) and WEBHOOKS_RETRY_WINDOW_SECONDS (default
 * 86400): how long after the first attempt a failing delivery is retried before it is `failed`.
 */
export function retryPolicy(env: NodeJS.ProcessEnv = process.env): { delaysSeconds: number[]; windowSeconds: number } {
  return {
    delaysSeconds: seconds(env.WEBHOOKS_RETRY_DELAYS, 'WEBHOOKS_RETRY_DELAYS') ?? DEFAULT_RETRY_DELAYS_SECONDS,
    windowSeconds: seconds(env.WEBHOOKS_RETRY_WINDOW_SECONDS, 'WEBHOOKS_RETRY_WINDOW_SECONDS')?.[0] ?? DEFAULT_RETRY_WINDOW_SECONDS,
  };
}

/** The delay before attempt `attempts + 1`, given `attempts` made; the schedule's last delay repeats. */
export function retryDelaySeconds(delays: number[], attempts: number): number {
  return delays[Math.min(Math.max(attempts - 1, 0), delays.length - 1)];
}

/** Bounds on what a caller controls and on what a receiver may cost (docs/webhooks.md "Limits"). */
export const WEBHOOK_LIMITS = {
  urlLength: 2000,
  eventsPerWebhook: 20,
  webhooksPerProject: 20,
  /** A delivery attempt's whole time: connect, send, answer headers. */
  timeoutMs: 10_000,
  /** How much of a receiver's answer is read (and the first 200 characters kept in `error`). */
  responseBytes: 64 * 1024,
} as const;
