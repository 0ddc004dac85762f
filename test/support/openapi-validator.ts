import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { default as addFormatsModule } from 'ajv-formats';
import { buildOpenApiDocument, type OpenApiDocument } from '../../src/openapi/document.ts';

// ajv-formats ships CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/**
 * Checks real responses against the published OpenAPI document: the status must be documented
 * for the path and method, the body must match its schema and required headers must be present.
 * The document is built and compiled once per process; validators are cached per response.
 */

const DOCUMENT_ID = 'urn:accounting:openapi';

interface State {
  document: OpenApiDocument;
  ajv: Ajv2020;
  validators: Map<string, ValidateFunction>;
}

let state: State | undefined;

function load(): State {
  if (state) return state;
  const document = buildOpenApiDocument();
  // strict off: OpenAPI adds `example` and `x-*` keywords that are not JSON Schema vocabulary.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  state = { document, ajv, validators: new Map() };
  return state;
}

function pointer(...segments: string[]): string {
  return segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

function validator(key: string, ref: string): ValidateFunction {
  const { ajv, validators } = load();
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile({ $ref: `${DOCUMENT_ID}#/${ref}` });
    validators.set(key, validate);
  }
  return validate;
}

type Json = Record<string, unknown>;

function resolve(document: OpenApiDocument, value: unknown): Json | undefined {
  let node = value as Json | undefined;
  while (node && typeof node.$ref === 'string') {
    const path = node.$ref.replace(/^#\//, '').split('/');
    let target: unknown = document;
    for (const part of path)
      target = (target as Json | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    node = target as Json | undefined;
  }
  return node;
}

export interface ObservedResponse {
  method: string;
  /** Path without the query string, e.g. `/api/v1/accounting/contractors.list`. */
  path: string;
  status: number;
  headers: Headers;
  body: unknown;
}

/** Returns a list of problems (empty when the response conforms). */
export function openApiProblems(response: ObservedResponse): string[] {
  const { document } = load();
  const method = response.method.toLowerCase();
  const where = `${response.method} ${response.path} -> ${response.status}`;
  const problems: string[] = [];
  if (!response.headers.get('x-request-id')) problems.push(`${where}: no X-Request-Id header`);
  if (!response.headers.get('x-accounting-api-version'))
    problems.push(`${where}: no X-Accounting-API-Version header`);

  const item = document.paths[response.path];
  const operation = item?.[method];
  if (!operation) {
    // Unknown operations (404) and methods the document does not list (405) answer the Error body.
    const expected = item ? 405 : 404;
    if (response.status !== expected) {
      problems.push(`${where}: undocumented ${item ? 'method' : 'path'} should answer ${expected}`);
    }
    const validate = validator('error', 'components/schemas/Error');
    if (!validate(response.body)) problems.push(`${where}: ${load().ajv.errorsText(validate.errors)}`);
    return problems;
  }

  const responses = operation.responses as Json;
  const statusKey = String(response.status);
  const declared = responses[statusKey] !== undefined ? statusKey : responses.default ? 'default' : undefined;
  if (declared === undefined) {
    problems.push(`${where}: status ${response.status} is not documented`);
    return problems;
  }
  const resolved = resolve(document, responses[declared]);
  const content = resolved?.content as Json | undefined;
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (content && mediaType !== '' && mediaType !== 'application/json') {
    // A file form (invoices.pdf with Accept: application/pdf): its media type must be documented.
    if (!content[mediaType]) problems.push(`${where}: content type ${mediaType} is not documented`);
  } else if (content?.['application/json']) {
    const schemaRef = pointer('paths', response.path, method, 'responses', declared);
    const base = (responses[declared] as Json).$ref;
    const ref =
      typeof base === 'string'
        ? `${base.replace(/^#\//, '')}/content/application~1json/schema`
        : `${schemaRef}/content/application~1json/schema`;
    const validate = validator(ref, ref);
    if (!validate(response.body)) problems.push(`${where}: ${load().ajv.errorsText(validate.errors)}`);
  }
  for (const [name, header] of Object.entries((resolved?.headers ?? {}) as Json)) {
    const definition = resolve(document, header);
    if (definition?.required === true && response.headers.get(name) === null) {
      problems.push(`${where}: required header ${name} is missing`);
    }
  }
  return problems;
}

/** Throws (failing the calling test) when the response does not match the document. */
export function assertMatchesOpenApi(response: ObservedResponse): void {
  const problems = openApiProblems(response);
  if (problems.length > 0) {
    throw new Error(`Response does not match the OpenAPI document:\n${problems.join('\n')}`);
  }
}
