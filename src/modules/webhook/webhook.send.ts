import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedUrl } from './webhook.url-guard';
import { WEBHOOK_LIMITS } from './webhook.settings';

export interface SendResult {
  /** The receiver's status; null when it gave none (refused, timed out, reset). */
  status: number | null;
  /** Why the attempt failed, or null; at most a few hundred characters. */
  error: string | null;
}

/**
 * POSTs `body` to the checked URL, connecting to the address that was checked (the name is not
 * looked up again, so DNS cannot swap in another address; TLS still verifies the name). Bounded:
 * WEBHOOK_LIMITS.timeoutMs for the whole attempt, at most responseBytes of the answer read, no
 * redirect followed (a 3xx is a failure).
 */
export function sendWebhook(target: CheckedUrl, headers: Record<string, string>, body: string): Promise<SendResult> {
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (err: null, addresses: Array<{ address: string; family: number }>) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    } else callback(null, target.address, target.family);
  };
  const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = send(
      target.url,
      {
        method: 'POST',
        lookup: pinned,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'flagship-webhooks',
        },
        agent: false,
      },
      (res) => {
        const status = res.statusCode ?? null;
        let read = 0;
        let text = '';
        res.on('data', (chunk: Buffer) => {
          if (read < 200) text += chunk.subarray(0, 200 - read).toString('utf8');
          read += chunk.length;
          if (read > WEBHOOK_LIMITS.responseBytes) res.destroy();
        });
        const finish = () => {
          const ok = status !== null && status >= 200 && status < 300;
          done({ status, error: ok ? null : `The receiver answered ${status}${text ? `: ${text.slice(0, 200)}` : ''}` });
        };
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      done({ status: null, error: `No answer within ${WEBHOOK_LIMITS.timeoutMs / 1000} s.` });
    }, WEBHOOK_LIMITS.timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) =>
      done({ status: null, error: `Could not deliver: ${error.code ?? error.message}`.slice(0, 300) }),
    );
    req.end(body);
  });
}
