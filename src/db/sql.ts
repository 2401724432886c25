/** `%text%` for ILIKE, with the pattern characters of `text` escaped (a search matches them literally). */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
