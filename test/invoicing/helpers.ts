import fc from 'fast-check';
import { fromEpochDay, toEpochDay } from '../../src/invoicing/calendar.ts';
import { InvoicingError } from '../../src/invoicing/errors.ts';

/** "code field" of the InvoicingError that `fn` throws, or "ok"; other errors propagate. */
export function failure(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof InvoicingError) return `${error.code} ${error.field}`;
    throw error;
  }
  return 'ok';
}

/** Civil dates between two bounds, generated as day numbers so every day is equally likely. */
export function dateBetween(from: string, to: string): fc.Arbitrary<string> {
  return fc.integer({ min: toEpochDay(from), max: toEpochDay(to) }).map(fromEpochDay);
}
