/** A JSON Schema (OpenAPI 3.1 uses JSON Schema 2020-12 as it is). */
export type JsonSchema = Record<string, unknown>;

/** OpenAPI security requirements: scheme name → scopes; `[]` (no requirement at all) is a public operation. */
export type SecurityRequirement = Record<string, string[]>;

/** A query parameter as a row documents it by hand. */
export interface QueryParameterDocs {
  schema: JsonSchema;
  required?: boolean;
  description?: string;
}

/** A response a row documents by hand: `schema: null` is a response without a body; absent: the error shape. */
export interface ResponseDocs {
  description: string;
  schema?: JsonSchema | null;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
}

/**
 * What a route row adds to the OpenAPI document (src/openapi/document.ts) beyond what the generator
 * reads from the row itself (method, path, auth, GraphQL operation and input type, status, shape).
 * A `handler` row has no GraphQL types: without `response` it is documented with an open body.
 */
export interface RouteDocs {
  summary?: string;
  description?: string;
  /**
   * Query parameters, added to (and overriding by name) those read from the row's GraphQL variables;
   * `null` drops one read from a variable the row does not take from the query string under that name.
   * A `required` one can be refused with a 400; the others are lenient.
   */
  query?: Record<string, QueryParameterDocs | null>;
  /** The JSON request body, instead of the one read from the row's `inputType`. */
  body?: JsonSchema;
  /** The success body, instead of the one read from the GraphQL selection (`null`: no body). */
  response?: JsonSchema | null;
  /** The success status of a `handler` row (default 200). */
  status?: number;
  /** More responses: by status, with their own description and body. */
  responses?: Record<number, ResponseDocs>;
  /** More error statuses answered with the usual error body (`{type, code, detail, attr}`). */
  errors?: number[];
  /** Named schemas (`components.schemas`) the schemas above refer to as `{ $ref: '#/components/schemas/<name>' }`. */
  schemas?: Record<string, JsonSchema>;
}

/** An OpenAPI operation object, for paths the route table does not serve (capture, health, the schema itself). */
export interface OutsideOperation {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'OPTIONS';
  /** As in the route table (`:param`); it answers with and without a trailing slash. */
  path: string;
  operation: Record<string, unknown>;
  /** Named schemas (`components.schemas`) the operation refers to as `{ $ref: '#/components/schemas/<name>' }`. */
  schemas?: Record<string, JsonSchema>;
}
