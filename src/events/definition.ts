import type { TSchema } from 'typebox';

/**
 * One event type of the catalog. `data` is the JSON Schema of the envelope's `data` (camelCase
 * fields, money as decimal strings of minor units, dates as ISO dates); docs/events.md is
 * generated from these definitions.
 */
export interface EventDefinition {
  type: string;
  /** `subject.type` of the envelope, or null for events about no single record. */
  subjectType: string | null;
  description: string;
  data: TSchema;
}
