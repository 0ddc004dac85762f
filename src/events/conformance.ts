import { Ajv, type ValidateFunction } from 'ajv';
import { default as addFormatsModule } from 'ajv-formats';
import type { EventInput } from '../operations/context.ts';
import type { EventDefinition } from './definition.ts';

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
    validate = ajv.compile(JSON.parse(JSON.stringify(definition.data)) as object);
    validators.set(definition.type, validate);
  }
  return validate(event.data) ? null : ajv.errorsText(validate.errors, { dataVar: 'data' });
}
