import type { EventDefinition } from './definition.ts';

/**
 * docs/events.md, generated from the catalog so the published list can never drift from what is
 * emitted (test/events/doc.test.ts compares; `npx tsx scripts/events-doc.ts` rewrites it).
 */

interface SchemaNode {
  type?: string | string[];
  anyOf?: SchemaNode[];
  items?: SchemaNode;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  format?: string;
  pattern?: string;
  const?: unknown;
  description?: string;
}

function typeName(node: SchemaNode): string {
  if (node.anyOf) return node.anyOf.map(typeName).join(' or ');
  if (node.const !== undefined) return `\`${JSON.stringify(node.const)}\``;
  if (node.type === 'array') return `array of ${node.items ? typeName(node.items) : 'any'}`;
  if (node.type === 'string' && node.format === 'date') return 'date (ISO 8601)';
  if (node.type === 'string' && node.format === 'date-time') return 'timestamp (ISO 8601)';
  if (node.type === 'string' && node.pattern === '^(0|[1-9][0-9]*)$') return 'decimal string';
  if (node.type === 'object') return 'object';
  if (Array.isArray(node.type)) return node.type.join(' or ');
  return node.type ?? 'any';
}

function description(node: SchemaNode): string {
  return (node.description ?? node.anyOf?.find((n) => n.description)?.description ?? '').replaceAll(
    '|',
    '\\|',
  );
}

function section(definition: EventDefinition): string {
  const schema = definition.data as SchemaNode;
  const required = new Set(schema.required ?? []);
  const rows = Object.entries(schema.properties ?? {}).map(
    ([name, node]) =>
      `| \`${name}\` | ${typeName(node)}${required.has(name) ? '' : ' (optional)'} | ${description(node)} |`,
  );
  return [
    `### \`${definition.type}\``,
    '',
    definition.description,
    '',
    `Subject: ${definition.subjectType === null ? 'none (`null`)' : `\`${definition.subjectType}\``}`,
    '',
    ...(rows.length === 0
      ? ['Data: `{}`']
      : ['| Data field | Type | Meaning |', '| --- | --- | --- |', ...rows]),
    '',
  ].join('\n');
}

export function renderEventsDoc(definitions: readonly EventDefinition[]): string {
  const sorted = [...definitions].sort((a, b) => a.type.localeCompare(b.type));
  const index = sorted.map(
    (d) => `| \`${d.type}\` | ${d.subjectType ?? '—'} | ${d.description.replaceAll('|', '\\|')} |`,
  );
  return [
    '# Event catalog',
    '',
    '<!-- Generated from src/events/types/*.ts by `npx tsx scripts/events-doc.ts`; do not edit by hand. -->',
    '',
    'Every event is delivered as the envelope `{id, type, created, organizationId, subject, data}`',
    '(see docs/webhooks.md). Data fields are camelCase; money is a decimal string of minor units;',
    'dates are ISO 8601 dates. Endpoints choose events with patterns: an exact type, a group',
    '(`invoice.*`, any depth) or `*`.',
    '',
    '| Type | Subject | Meaning |',
    '| --- | --- | --- |',
    ...index,
    '',
    '## Types',
    '',
    ...sorted.map(section),
  ].join('\n');
}
