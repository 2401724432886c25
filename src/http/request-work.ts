import type { Middleware } from 'koa';
import { requestErrors } from '../errors';

/**
 * The computing work of one request (experiment results, tile results, blast radius, flag
 * evaluations): it runs one task at a time, and stops when the request is answered or its client
 * goes away.
 *
 * - One at a time: a request's computations queue behind each other, so one request holds at most
 *   one pooled connection for them however many fields it asks for (24 aliases of 50 results once
 *   held every connection for 5 s, and another organization's list waited).
 * - Stopped: once the request is answered (GraphQL answers as soon as one field's error nulls the
 *   response, while the other fields still run) or the client disconnects, the signal aborts: queued
 *   tasks never start, running ones see the signal between statements (and results cancel their
 *   statement in flight). The answer is sent only after the running task has settled, so no
 *   statement of the request outlives its response.
 */
export class RequestWork {
  // Made on first use: most requests that may compute never do, and then stopping costs nothing.
  private controller: AbortController | null = null;
  private tail: Promise<unknown> | null = null;
  private stopped = false;

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.stopped) this.controller.abort(requestErrors.requestEnded());
    }
    return this.controller.signal;
  }

  /** Runs `task` after the request's earlier tasks; refused once the request has stopped. */
  run<T>(task: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const result = (this.tail ?? Promise.resolve()).then(() => {
      this.signal.throwIfAborted();
      return task(this.signal);
    });
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Aborts the queued and running tasks; resolves when the running one has settled. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.controller && !this.controller.signal.aborted) this.controller.abort(requestErrors.requestEnded());
    await this.tail;
  }
}

/** A request's work, made before anything can create its context (see contextFactory in app.ts). */
export function requestWork(): Middleware {
  return async (koa, next) => {
    const work = new RequestWork();
    koa.state.work = work;
    // `close` before the response finished: the client went away (a finished response closes too).
    const onClose = () => {
      if (!koa.res.writableFinished) void work.stop();
    };
    koa.res.once('close', onClose);
    try {
      await next();
    } finally {
      await work.stop();
    }
  };
}
