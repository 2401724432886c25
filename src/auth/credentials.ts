/** Where a personal API key was found; it names the place in the 401 message. */
export type CredentialSource = 'Authorization header' | 'body' | 'query string';

export interface Credential {
  value: string;
  source: CredentialSource;
}

export interface CredentialCarrier {
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, unknown>;
  body: unknown;
}

const BEARER = /^Bearer\s+(\S.+)$/i;

/**
 * Finds the request's credential; only the first candidate is tried (docs/rest-api.md §2.1):
 * Authorization: Bearer, then `personal_api_key` in the body, then in the query string.
 */
export function extractCredential(request: CredentialCarrier): Credential | null {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? BEARER.exec(header.trim()) : null;
  if (match) return { value: match[1].trim(), source: 'Authorization header' };
  const body = request.body;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const value = (body as Record<string, unknown>).personal_api_key;
    if (typeof value === 'string' && value.trim()) return { value: value.trim(), source: 'body' };
  }
  const query = request.query.personal_api_key;
  const value = Array.isArray(query) ? query[0] : query;
  if (typeof value === 'string' && value.trim()) return { value: value.trim(), source: 'query string' };
  return null;
}
