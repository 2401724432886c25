import { readFile } from 'node:fs/promises';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * The response-validation hook of `startTestApp().request` (test-app.ts): each answer to a documented
 * operation must have a declared status and, when that status declares a JSON body, a body the
 * schema accepts. The document is the one the code generates now (test/openapi.test.ts keeps the
 * committed schema/openapi.json equal to it). Undocumented methods and paths are not checked.
 */

type Json = Record<string, any>;

interface Template {
  path: string;
  pattern: RegExp;
  literals: number;
}

const escapePointer = (segment: string) => encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));
const pointer = (...segments: string[]) => `openapi.json#/${segments.map(escapePointer).join('/')}`;

class Contract {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false });
  private readonly templates: Template[];
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templateCache = new Map<string, string | null>();

  // validateSchema off: the document is checked against the OpenAPI meta-schema once, by
  // test/openapi.test.ts (swagger-parser), not again by every file that checks answers.
  constructor(private readonly document: Json) {
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'openapi.json', paths: document.paths, components: document.components });
    this.templates = Object.keys(document.paths).map((path) => {
      const segments = path.split('/').filter(Boolean);
      const source = segments.map((s) => (s.startsWith('{') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
      return { path, pattern: new RegExp(`^/${source}/?$`, 'i'), literals: segments.filter((s) => !s.startsWith('{')).length };
    });
  }

  /** The documented path a request path falls under: literal segments win over parameters, as in the router. */
  private templateOf(path: string): string | null {
    let template = this.templateCache.get(path);
    if (template === undefined) {
      const matches = this.templates.filter((t) => t.pattern.test(path));
      template = matches.length ? matches.reduce((best, t) => (t.literals > best.literals ? t : best)).path : null;
      if (this.templateCache.size < 10_000) this.templateCache.set(path, template);
    }
    return template;
  }

  check(method: string, url: string, status: number, contentType: string | null, text: string, body: unknown): string | null {
    const path = new URL(url, 'http://x').pathname;
    const template = this.templateOf(path);
    const verb = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
    const operation = template ? this.document.paths[template][verb] : undefined;
    if (!template || !operation) return null;
    const where = `${method.toUpperCase()} ${path} (documented as ${method.toUpperCase()} ${template})`;
    const responses = operation.responses as Json;
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => k in responses);
    if (!key) {
      return `${where} answered ${status}, which the OpenAPI document does not declare (declared: ${Object.keys(responses).join(', ')}). Body: ${excerpt(text)}`;
    }
    let response = responses[key] as Json;
    let location = ['paths', template, verb, 'responses', key];
    if (typeof response.$ref === 'string') {
      const name = response.$ref.split('/').pop()!;
      response = this.document.components.responses[name];
      location = ['components', 'responses', name];
    }
    if (method.toUpperCase() === 'HEAD') return null;
    const content = response.content as Json | undefined;
    if (!content) {
      return text === '' ? null : `${where} answered ${status} with a body, but the document declares none: ${excerpt(text)}`;
    }
    const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
    if (!(mediaType in content)) {
      return `${where} answered ${status} as ${mediaType || 'no media type'}, but the document declares ${Object.keys(content).join(', ')}: ${excerpt(text)}`;
    }
    if (mediaType !== 'application/json') return null;
    if (text === '' || (typeof body === 'string' && text !== JSON.stringify(body))) {
      return `${where} answered ${status} without the JSON body the document declares: ${excerpt(text)}`;
    }
    const id = pointer(...location, 'content', 'application/json', 'schema');
    let validate = this.validators.get(id);
    if (!validate) {
      validate = this.ajv.compile({ $ref: id });
      this.validators.set(id, validate);
    }
    if (validate(body)) return null;
    return `${where} answered ${status} with a body that does not match its OpenAPI schema (${location.join(' › ')}):\n${describe(validate.errors ?? [])}\nBody: ${excerpt(text)}`;
  }
}

const excerpt = (text: string) => (text.length > 600 ? `${text.slice(0, 600)}…` : text || '(empty)');

function describe(errors: ErrorObject[]): string {
  return errors
    .slice(0, 8)
    .map(
      (e) =>
        `  ${e.instancePath || '(body)'} ${e.message}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`,
    )
    .join('\n');
}

/** The document the global setup generated for this run (global-setup.ts, write-openapi.ts). */
async function generatedDocument(): Promise<Json> {
  const file = process.env.TEST_OPENAPI_FILE;
  if (!file) throw new Error('Run the tests through jest (global setup writes the OpenAPI document).');
  return JSON.parse(await readFile(file, 'utf8')) as Json;
}

let contract: Promise<Contract> | null = null;
const loadContract = () => (contract ??= generatedDocument().then((document) => new Contract(document)));

/**
 * Builds the document and its validators now (startTestApp calls it), so the first checked answer
 * of a test file does not pay for them: some tests time a request.
 */
export async function prepareContractCheck(): Promise<void> {
  await loadContract();
}

/** null when the answer keeps the documented contract, else why not (with a hint for fixing it). */
export async function contractProblem(
  method: string,
  url: string,
  status: number,
  contentType: string | null,
  text: string,
  body: unknown,
): Promise<string | null> {
  const problem = (await loadContract()).check(method, url, status, contentType, text, body);
  return problem
    ? `OpenAPI contract: ${problem}\n(The document is generated by src/openapi/ from the route table and GraphQL types; a row's own schema goes in its \`docs\`. ` +
        'Pass `{ checkContract: false }` to startTestApp only for a test that means to send an undocumented answer.)'
    : null;
}

/** An answer as tests read it: status, headers, the body parsed when it is JSON (else its text), and the text. */
export interface CheckedResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/**
 * `fetch` for tests, with the answer checked against the OpenAPI document like `startTestApp().request`'s:
 * for what `request()` cannot send (raw or gzipped bodies, forms, OPTIONS) or a server it does not
 * run (a second process, an app over a database that is down). Throws when the answer breaks the
 * documented contract; `{ checkContract: false }` only for a test that means to break it.
 */
export async function fetchChecked<T = any>(
  url: string,
  init: RequestInit = {},
  options: { checkContract?: boolean } = {},
): Promise<CheckedResponse<T>> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  if (options.checkContract !== false) {
    const problem = await contractProblem(init.method ?? 'GET', url, response.status, response.headers.get('content-type'), text, body);
    if (problem) throw new Error(problem);
  }
  return { status: response.status, headers: response.headers, body: body as T, text };
}

/**
 * The same check for an answer a test fetched itself (raw bodies, gzip, forms: what `request()` cannot
 * send): throws with the problem when the answer breaks the documented contract.
 */
export async function checkResponse(method: string, url: string, status: number, contentType: string | null, text: string): Promise<void> {
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: checked as text
  }
  const problem = await contractProblem(method, url, status, contentType, text, body);
  if (problem) throw new Error(problem);
}
