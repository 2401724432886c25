import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { allowPrivateUrls, WEBHOOK_LIMITS } from './webhook.settings';

/** Why a URL is refused; the text is the API's message (at `url`) or the delivery's `error`. */
export class UnsafeUrl extends Error {}

export interface CheckedUrl {
  url: URL;
  /** The address checked, which a delivery connects to (never the name again: no DNS rebinding). */
  address: string;
  family: 4 | 6;
}

const LOOKUP_TIMEOUT_MS = 5_000;
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96') as [ipaddr.IPv6, number];

/**
 * Only public unicast addresses: ipaddr.js names every special range (loopback, private,
 * linkLocal, uniqueLocal, unspecified, multicast, carrierGradeNat, reserved, …) and calls the
 * rest `unicast`. An IPv4-mapped IPv6 address is judged as the IPv4 address it carries. The
 * deprecated IPv4-compatible range `::/96` (RFC 4291, section 2.5.5.1), which ipaddr.js calls unicast
 * although it embeds an IPv4 address (`[::127.0.0.1]`), is refused whole: no public host uses it.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.match(IPV4_COMPATIBLE)) return false;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

/** The URL's shape: http(s), no credentials in it, bounded; refused with UnsafeUrl. */
export function parseWebhookUrl(text: string): URL {
  if (text.length > WEBHOOK_LIMITS.urlLength)
    throw new UnsafeUrl(`Ensure this URL has no more than ${WEBHOOK_LIMITS.urlLength} characters.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UnsafeUrl('Enter a valid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UnsafeUrl('Only http and https URLs are accepted.');
  if (url.username || url.password) throw new UnsafeUrl('A URL may not carry a user name or password.');
  if (!url.hostname) throw new UnsafeUrl('Enter a valid URL.');
  return url;
}

async function resolve(hostname: string): Promise<Array<{ address: string; family: number }>> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) return [{ address: host, family: host.includes(':') ? 6 : 4 }];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new UnsafeUrl("The URL's host could not be resolved in time.")), LOOKUP_TIMEOUT_MS);
  });
  try {
    return await Promise.race([lookup(host, { all: true, verbatim: true }), timeout]);
  } catch (error) {
    if (error instanceof UnsafeUrl) throw error;
    throw new UnsafeUrl("The URL's host could not be resolved.");
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Resolves the URL's host and refuses it unless every address is public (a name with one private
 * address among public ones is refused too), unless WEBHOOKS_ALLOW_PRIVATE_URLS=true. Run on create
 * and update, and again before every delivery attempt.
 */
export async function checkWebhookUrl(text: string): Promise<CheckedUrl> {
  const url = parseWebhookUrl(text);
  const addresses = await resolve(url.hostname);
  if (addresses.length === 0) throw new UnsafeUrl("The URL's host could not be resolved.");
  if (!allowPrivateUrls() && addresses.some(({ address }) => !isPublicAddress(address))) {
    throw new UnsafeUrl('The URL points to a loopback, private, link-local or otherwise non-public address.');
  }
  const [first] = addresses;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
