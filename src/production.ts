// The service runs in production mode unless told otherwise: graphql-js skips its development-only
// checks and Koa its stack traces. Imported first by the entry points, before anything reads it.
process.env.NODE_ENV ??= 'production';
