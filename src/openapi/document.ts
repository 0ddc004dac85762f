import { IDEMPOTENCY_HEADER_MAX, IDEMPOTENCY_HEADER_MIN, UUID_PATTERN } from '../contract/formats.ts';
import { API_PREFIX, API_VERSION, SPEC_VERSION } from '../contract/version.ts';
import { OPERATIONS } from '../operations/catalog.ts';
import { type AnyOperation, acceptsGet, isRead, mcpToolName } from '../operations/define.ts';
import { describeOperation, tagDescription } from './descriptions.ts';
import { queryParameters } from './parameters.ts';
import {
  ERROR_SCHEMA,
  errorResponseComponents,
  errorResponses,
  HEADERS,
  successHeaders,
} from './responses.ts';
import { sampleOf } from './sample.ts';
import { type JsonSchema, pascalName, plainSchema, rootName, SchemaRegistry } from './schemas.ts';

export type OpenApiDocument = {
  openapi: '3.1.0';
  info: Record<string, unknown>;
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: {
    schemas: Record<string, JsonSchema>;
    [section: string]: Record<string, unknown>;
  };
  [key: string]: unknown;
};

export const OPENAPI_PATH = '/api/v1/openapi.json';

const INFO_DESCRIPTION = `Organization-scoped accounting API.

Every operation is addressed as \`POST ${API_PREFIX}/<operation>\` with a JSON body; read operations also accept \`GET\` with the same parameters in the query string (a \`GET\` on a mutation answers 405 \`method_not_allowed\`). A success is \`{"data": ...}\` with status 200; every failure is the \`Error\` body with a stable \`code\`.

Mutations need an idempotency key (header \`Idempotency-Key\`, or body \`idempotencyKey\`); a retry with the same key takes effect once. Changes to an existing record need \`expectedRevision\`; a stale revision answers 409 \`revision_conflict\`.

Inputs are camelCase, returned records snake_case, money a decimal string of minor units. Every response carries \`X-Request-Id\` and \`X-Accounting-API-Version: ${API_VERSION}\`.

The same operations are MCP tools (Streamable HTTP at \`/mcp\`, or \`accounting mcp\` over stdio); the tool name is given in each operation's description.`;

function operationObject(
  operation: AnyOperation,
  registry: SchemaRegistry,
  method: 'post' | 'get',
  hasGet: boolean,
): Record<string, unknown> {
  const base = pascalName(operation.name);
  const mutation = !isRead(operation);
  const input = plainSchema(operation.input);
  const output = plainSchema(operation.output);
  const outputRef = registry.register(rootName(output, `${base}Result`), output);
  const tag = operation.tag ?? operation.name.split('.')[0] ?? operation.name;
  const example = operation.example === undefined ? undefined : plainSchema(operation.example);

  const parameters: unknown[] = [{ $ref: '#/components/parameters/OrganizationHeader' }];
  if (mutation) parameters.push({ $ref: '#/components/parameters/IdempotencyKeyHeader' });
  const entry: Record<string, unknown> = {
    operationId: method === 'post' ? operation.name : `${operation.name}:get`,
    summary: operation.summary,
    description: describeOperation(operation, { audience: 'http', mentionGet: method === 'post' && hasGet }),
    tags: [tag],
    parameters,
  };
  if (method === 'post') {
    const inputRef = registry.register(rootName(input, `${base}Request`), input);
    entry.requestBody = {
      required: true,
      description: mutation
        ? 'The operation input. `idempotencyKey` may be sent here or as the Idempotency-Key header.'
        : 'The operation input (an empty object when every parameter is optional).',
      content: {
        'application/json': { schema: inputRef, ...(example === undefined ? {} : { example }) },
      },
    };
  } else {
    parameters.push(...(queryParameters(input, example) ?? []));
  }
  const file = operation.file;
  entry.responses = {
    '200': {
      description: file
        ? `Success: the result is in \`data\`; with \`Accept: ${file.mediaTypes.join(', ')}\` or \`application/octet-stream\`, the file itself.`
        : 'Success: the result is in `data`.',
      headers: {
        ...successHeaders(mutation),
        ...(file
          ? {
              'Content-Disposition': {
                description: 'Only on the file form: `attachment; filename="..."; filename*=UTF-8\'\'...`.',
                schema: { type: 'string' },
              },
            }
          : {}),
      },
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['data'],
            additionalProperties: false,
            properties: { data: outputRef },
          },
          // Derived from the output schema (src/openapi/sample.ts); the tests validate it.
          example: { data: sampleOf(output) },
        },
        ...Object.fromEntries(
          [...(file?.mediaTypes ?? []), ...(file ? ['application/octet-stream'] : [])].map((type) => [
            type,
            { schema: { type: 'string', contentMediaType: type } },
          ]),
        ),
      },
    },
    ...errorResponses({ mutation, post: method === 'post' }),
  };
  const tool = mcpToolName(operation);
  entry['x-accounting-access'] = {
    scopes: operation.access.scopes,
    roles: operation.access.roles,
  };
  if (operation.mutation) entry['x-accounting-mutation'] = { ...operation.mutation };
  if (tool !== undefined) entry['x-mcp-tool'] = tool;
  return entry;
}

/**
 * The OpenAPI 3.1 document, derived entirely from the operation catalog: one path per operation,
 * POST always and GET for reads whose parameters fit a query string.
 */
export function buildOpenApiDocument(operations: readonly AnyOperation[] = OPERATIONS): OpenApiDocument {
  const registry = new SchemaRegistry();
  registry.register('Error', ERROR_SCHEMA);
  const paths: OpenApiDocument['paths'] = {};
  const tags = new Map<string, string>();
  for (const operation of operations) {
    const hasGet = acceptsGet(operation) && queryParameters(plainSchema(operation.input), undefined) !== null;
    const item: Record<string, Record<string, unknown>> = {
      post: operationObject(operation, registry, 'post', hasGet),
    };
    if (hasGet) item.get = operationObject(operation, registry, 'get', hasGet);
    paths[`${API_PREFIX}/${operation.name}`] = item;
    const tag = operation.tag ?? operation.name.split('.')[0] ?? operation.name;
    if (!tags.has(tag)) tags.set(tag, tagDescription(tag, operations));
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Accounting Service API',
      version: SPEC_VERSION,
      description: INFO_DESCRIPTION,
      'x-accounting-api-version': API_VERSION,
    },
    servers: [{ url: '/', description: 'This service (paths are absolute).' }],
    security: [{ bearerAuth: [] }],
    tags: [...tags].map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: registry.schemas,
      responses: errorResponseComponents(),
      headers: HEADERS,
      parameters: {
        IdempotencyKeyHeader: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Idempotency key of a mutation (8-200 characters); required unless the body has `idempotencyKey`, and must equal it when both are sent. A retry with the same key and input returns the stored result and takes effect once.',
          schema: { type: 'string', minLength: IDEMPOTENCY_HEADER_MIN, maxLength: IDEMPOTENCY_HEADER_MAX },
        },
        OrganizationHeader: {
          name: 'X-Accounting-Organization',
          in: 'header',
          required: false,
          description: 'Organization selection; must match the credential’s organization (403 otherwise).',
          schema: { type: 'string', pattern: UUID_PATTERN },
        },
      },
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A scoped API key (`ak_...`, created with `accounting keys create`) or an OAuth access token from the configured issuer. Scopes: `accounting:read`, `accounting:write`, `accounting:admin`. Keep credentials on a trusted backend.',
        },
      },
    },
  };
}

let cached: OpenApiDocument | undefined;

/** The document of this process's catalog, built once. */
export function openApiDocument(): OpenApiDocument {
  cached ??= buildOpenApiDocument();
  return cached;
}
