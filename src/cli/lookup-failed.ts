/**
 * A command looked for something (a user, organization, project, key) and the database does not
 * hold it. The usual cause is the wrong database (no DATABASE_URL, so the embedded one in ./.data,
 * while the server runs on PostgreSQL), so the CLI adds which database it looked in (run.ts).
 */
export class LookupFailed extends Error {}
