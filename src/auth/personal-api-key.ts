import { hash, randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random base62 text from a CSPRNG (randomInt is unbiased). */
export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(BASE62.length)];
  return out;
}

/** `phx_` + 43 base62 characters (docs/README.md decision 6). */
export const generatePersonalApiKey = () => `phx_${randomBase62(43)}`;
export const generateProjectApiToken = () => `phc_${randomBase62(43)}`;
export const generateProjectSecretToken = () => `phs_${randomBase62(43)}`;

/** Keys are stored only as this digest and looked up by it (one-shot: every admin request hashes its key). */
export function hashPersonalApiKey(key: string): string {
  return `sha256$${hash('sha256', key, 'hex')}`;
}

export const maskPersonalApiKey = (key: string) => `phx_...${key.slice(-4)}`;
