import { Ajv, type ValidateFunction } from 'ajv';
import { default as addFormatsModule } from 'ajv-formats';
import type { EventDefinition } from './definition.ts';
import type { EventInput } from './input.ts';

// ajv-formats ships CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
const validators = new Map<string, ValidateFunction>();

/**
 * What is wrong with an event against its catalog entry (docs/events.md is generated from the
 * catalog, so this is what keeps the documentation true): the subject type and the data schema.
 * Returns null when it conforms.
 */
export function eventNonConformance(definition: EventDefinition, event: EventInput): string | null {
  const subjectType = event.subject?.type ?? null;
  if (subjectType !== definition.subjectType) {
    return `subject type ${String(subjectType)}, the catalog says ${String(definition.subjectType)}`;
  }
  let validate = validators.get(definition.type);
  if (!validate) {
    validate = ajv.compile(closed(JSON.parse(JSON.stringify(definition.data))) as object);
    validators.set(definition.type, validate);
  }
  return validate(event.data) ? null : ajv.errorsText(validate.errors, { dataVar: 'data' });
}

/**
 * The schema with every object closed (`additionalProperties: false` where it says nothing), so a
 * field an event carries but the catalog does not document is a mismatch too.
 */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (typeof schema !== 'object' || schema === null) return schema;
  const node = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, closed(value)]));
  if (node.type === 'object' && node.properties !== undefined && node.additionalProperties === undefined) {
    node.additionalProperties = false;
  }
  return node;
}
