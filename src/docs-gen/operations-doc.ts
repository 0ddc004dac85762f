import { IDEMPOTENCY_HEADER_MAX, IDEMPOTENCY_HEADER_MIN } from '../contract/formats.ts';
import { API_PREFIX, API_VERSION, SPEC_VERSION } from '../contract/version.ts';
import { type AnyOperation, acceptsGet, isRead, mcpToolName } from '../operations/define.ts';
import { code, generatedNotice, table } from './markdown.ts';
import { type SchemaNode, schemaText } from './schema-text.ts';

const DEFAULT_MAX_BODY = 1024 * 1024;

function roles(operation: AnyOperation): string {
  const { roles: allowed, restrictedFields } = operation.access;
  if (allowed === 'dashboard') return 'dashboard only';
  const restricted = Object.entries(restrictedFields ?? {}).map(
    ([field, only]) => `; setting ${code(field)}: ${only.join(', ')}`,
  );
  return `${allowed.join(', ')}${restricted.join('')}`;
}

function idempotency(operation: AnyOperation): string {
  if (!operation.mutation) return '—';
  return `header ${IDEMPOTENCY_HEADER_MIN}-${IDEMPOTENCY_HEADER_MAX}, body 8-${operation.mutation.idempotencyKeyMax}`;
}

function group(operation: AnyOperation): string {
  return operation.tag ?? operation.name.split('.')[0] ?? operation.name;
}

function inputTable(operation: AnyOperation): string {
  const schema = operation.input as { properties?: Record<string, SchemaNode>; required?: string[] };
  const required = new Set(schema.required ?? []);
  const rows = Object.entries(schema.properties ?? {}).map(([name, node]) => [
    code(name),
    schemaText(node),
    required.has(name)
      ? 'yes'
      : node.default !== undefined
        ? `no (default ${JSON.stringify(node.default)})`
        : 'no',
    node.description ?? '',
  ]);
  return rows.length ? table(['Field', 'Type', 'Required', 'Meaning'], rows) : 'No input fields.';
}

function details(operation: AnyOperation): string {
  const facts = [
    acceptsGet(operation)
      ? 'Read: POST with a JSON body, or GET with the same fields as query parameters.'
      : isRead(operation)
        ? 'Read: POST only (as the contract lists it).'
        : 'Mutation: POST only.',
    operation.access.roles === 'dashboard'
      ? 'Never callable with an API key, OAuth token or MCP: confirmed from the dashboard only.'
      : `Scopes: ${operation.access.scopes.map(code).join(', ')}. Roles: ${roles(operation)}.`,
    ...(operation.mutation?.destructive ? ['Destructive: cannot be undone.'] : []),
    ...(operation.maxBodyBytes && operation.maxBodyBytes !== DEFAULT_MAX_BODY
      ? [`Body limit: ${operation.maxBodyBytes} bytes.`]
      : []),
  ];
  return [
    `### ${code(operation.name)}`,
    '',
    operation.summary + (operation.summary.endsWith('.') ? '' : '.'),
    ...(operation.description ? ['', operation.description] : []),
    '',
    facts.join(' '),
    '',
    inputTable(operation),
    ...(operation.example === undefined
      ? []
      : ['', 'Example input:', '', '```json', JSON.stringify(operation.example, null, 2), '```']),
  ].join('\n');
}

/** docs/operations.md: the catalog as a table, then every operation's input fields. */
export function renderOperationsDoc(operations: readonly AnyOperation[]): string {
  const rows = operations.map((operation) => [
    code(operation.name),
    acceptsGet(operation) ? 'POST, GET' : 'POST',
    operation.access.scopes.join(', ') || '—',
    roles(operation),
    idempotency(operation),
    operation.mutation?.revision === 'required' ? code('expectedRevision') : '—',
    mcpToolName(operation) ?? '—',
    operation.summary,
  ]);
  const groups = [...new Set(operations.map(group))];
  return `${[
    '# Operations',
    '',
    generatedNotice('src/operations/catalog.ts'),
    '',
    `Every operation is ${code(`POST ${API_PREFIX}/<operation>`)} with a JSON body; reads also accept`,
    `${code('GET')} with the same fields as query parameters. Success is HTTP 200 with ${code('{"data": ...}')};`,
    `failures use the error body of docs/errors.md. Every response carries ${code('X-Request-Id')} and`,
    `${code(`X-Accounting-API-Version: ${API_VERSION}`)} (interface version ${SPEC_VERSION}).`,
    `Mutations need an idempotency key (${code('Idempotency-Key')} header or body ${code('idempotencyKey')});`,
    `changes to an existing record need ${code('expectedRevision')}. The OpenAPI document is served at`,
    `${code('/api/v1/openapi.json')}.`,
    '',
    table(
      ['Operation', 'Methods', 'Scopes', 'Roles', 'Idempotency key', 'Revision', 'MCP tool', 'Summary'],
      rows,
    ),
    '',
    ...groups.flatMap((name) => [
      `## ${name}`,
      '',
      ...operations
        .filter((operation) => group(operation) === name)
        .flatMap((operation) => [details(operation), '']),
    ]),
  ]
    .join('\n')
    .trimEnd()}\n`;
}
