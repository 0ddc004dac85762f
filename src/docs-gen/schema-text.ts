import { UUID_PATTERN } from '../contract/formats.ts';

/** Enough of JSON Schema to describe an input field in one line. */
interface SchemaNode {
  type?: string | string[];
  anyOf?: SchemaNode[];
  items?: SchemaNode;
  const?: unknown;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  description?: string;
}

function range(min: number | undefined, max: number | undefined, unit: string): string {
  if (min === undefined && max === undefined) return '';
  if (min !== undefined && max !== undefined) return `, ${min}-${max}${unit}`;
  return min !== undefined ? `, at least ${min}${unit}` : `, at most ${max}${unit}`;
}

/** `string (ID)`, `integer, 1-100`, `"a" or "b"`, `array of ID, 1-20 items`... */
export function schemaText(node: SchemaNode): string {
  if (node.anyOf) return node.anyOf.map(schemaText).join(' or ');
  if (node.const !== undefined) return JSON.stringify(node.const);
  // Type.Enum is an `enum` without `type`: its values are its type.
  if (Array.isArray(node.enum)) return node.enum.map((value) => JSON.stringify(value)).join(' or ');
  const type = Array.isArray(node.type) ? node.type.join(' or ') : (node.type ?? 'any');
  switch (type) {
    case 'string': {
      if (node.pattern === UUID_PATTERN) return 'ID';
      const format = node.format ? ` (${node.format})` : node.pattern ? ` (${node.pattern})` : '';
      return `string${format}${range(node.minLength, node.maxLength, ' characters')}`;
    }
    case 'integer':
    case 'number':
      return `${type}${range(node.minimum, node.maximum, '')}`;
    case 'array':
      return `array of ${node.items ? schemaText(node.items) : 'any'}${range(node.minItems, node.maxItems, ' items')}`;
    default:
      return type;
  }
}

export type { SchemaNode };
