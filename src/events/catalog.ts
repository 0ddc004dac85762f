import type { EventDefinition } from './definition.ts';
import { booksEvents } from './types/books.ts';
import { contractorEvents } from './types/contractors.ts';
import { invoicingEvents } from './types/invoicing.ts';
import { partyEvents } from './types/parties.ts';
import { receiptEvents } from './types/receipts.ts';
import { webhookEvents } from './types/webhooks.ts';

/** Every event type the service emits; each area keeps its own list in `src/events/types/<area>.ts`. */
export const EVENT_TYPES: readonly EventDefinition[] = [
  ...contractorEvents,
  ...webhookEvents,
  ...partyEvents,
  ...invoicingEvents,
  ...booksEvents,
  ...receiptEvents,
];

const byType = new Map(EVENT_TYPES.map((definition) => [definition.type, definition]));

export function findEventType(type: string): EventDefinition | undefined {
  return byType.get(type);
}
