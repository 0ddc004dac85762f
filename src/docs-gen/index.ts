import { EVENT_TYPES } from '../events/catalog.ts';
import { renderEventsDoc } from '../events/doc.ts';
import { OPERATIONS } from '../operations/catalog.ts';
import { renderErrorsDoc } from './errors-doc.ts';
import { renderOperationsDoc } from './operations-doc.ts';

/**
 * Every generated document, keyed by its path from the repository root. `npm run docs` writes
 * them; test/docs/generated.test.ts fails when a committed copy is out of date.
 * docs/events.md comes from the events area's own renderer (src/events/doc.ts).
 */
export function generatedDocs(): Record<string, string> {
  return {
    'docs/operations.md': renderOperationsDoc(OPERATIONS),
    'docs/errors.md': renderErrorsDoc(),
    'docs/events.md': renderEventsDoc(EVENT_TYPES),
  };
}
