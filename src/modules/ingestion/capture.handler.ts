import type { MikroORM } from '@mikro-orm/postgresql';
import type { Middleware } from 'koa';
import { AppError } from '../../errors';
import type { AppCaches } from '../../app-caches';
import { publicTokenAccess, type AppParts, type Endpoint } from '../../http/route-policy';
import { captureOperations } from './capture.openapi';
import { readCapturePayload } from '../../rest/capture.body';
import { validateEvent, type CapturedEvent } from './capture.event';
import { parseCapturePayload } from './capture.payload';
import { captureErrors, MAX_EVENT_BYTES, MAX_EVENTS } from './ingestion.errors';
import { ingestEvents } from './ingestion.service';
import { isRetryable, isUnavailable } from './ingestion.store';
import { projectIdForToken } from '../project/project.tokens';
import { mapInSlices } from '../../event-loop-slices';

const SUCCESS = { status: 1 };

/** A project's public token → its id (remembered for a moment, like every token lookup: project.tokens.ts). */
async function projectForToken(orm: MikroORM, caches: AppCaches, token: string): Promise<number> {
  const projectId = await projectIdForToken({ caches, reads: orm.em }, 'api_token', token);
  if (projectId === null) throw captureErrors.invalidToken();
  return projectId;
}

/** docs/ingestion.md §1.3, after the token: the event count, each event's size, then each event's fields. */
async function validateEvents(items: unknown[], textBytes: number, sentAt: Date | null, now: Date): Promise<CapturedEvent[]> {
  if (items.length > MAX_EVENTS) throw captureErrors.tooManyEvents();
  // SPEC-GAP: an event's size is the UTF-8 length of its JSON as re-serialised, measured only when the
  // payload itself is over 1 MB (an event is part of it; only number notation like 1e300 grows back).
  if (textBytes > MAX_EVENT_BYTES && items.some((item) => Buffer.byteLength(JSON.stringify(item) ?? '') > MAX_EVENT_BYTES)) {
    throw captureErrors.eventTooLarge();
  }
  return mapInSlices(items, (item) => validateEvent(item, sentAt, now));
}

/**
 * The capture endpoints: a hot path of its own. It reads and decompresses its body itself; no
 * personal key and no rate limit, the token names the project. `ingested` counts what was
 * acknowledged (/metrics).
 */
function capture({ orm, logger, metrics, caches, clock }: AppParts): Middleware {
  return async (ctx) => {
    const now = new Date(clock.now());
    const text = await readCapturePayload(ctx);
    const payload = parseCapturePayload(text, ctx.query);
    if (payload.token === null) throw captureErrors.missingToken();
    try {
      const projectId = await projectForToken(orm, caches, payload.token);
      const events = await validateEvents(payload.items, Buffer.byteLength(text), payload.sentAt, now);
      await ingestEvents(orm, projectId, events, now);
      metrics.ingested(events.length);
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (!isUnavailable(error) && !isRetryable(error)) throw error;
      logger.warn({ err: error, request_id: ctx.state.requestId }, 'capture: database unavailable or contended');
      throw captureErrors.unavailable();
    }
    ctx.body = SUCCESS;
  };
}

/** posthog-node/-python use /batch/; posthog-js and curl /e/, /capture/ and /i/v0/e/ (docs/ingestion.md §1). */
export const captureEndpoints: Endpoint[] = captureOperations.map((docs) => ({
  path: docs.path,
  methods: ['POST'],
  auth: publicTokenAccess,
  policy: { body: 'raw', cors: 'sdk', limit: 'none', work: false },
  create: capture,
  docs: [docs],
}));
