/** `%text%` for ILIKE, with the pattern characters of `text` escaped (a search matches them literally). */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** PostgreSQL text and jsonb hold no NUL: text with one can never equal anything stored, so it is not sent. */
export const storableText = (text: string) => !text.includes('\u0000');
