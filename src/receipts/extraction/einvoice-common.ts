import { decimalToMinor, normalizeDecimal } from './money.ts';
import type { DocumentType, ExtractedFields, Field, ServicePeriod } from './types.ts';
import type { XmlElement } from './xml.ts';
import { pathOf, textOf } from './xml-query.ts';

// Shared by the UBL and CII bindings: every value read from XML has confidence 1 and points at
// the element it came from.

export function xmlField<T>(el: XmlElement, value: T): Field<T> {
  return { value, confidence: 1, source: { kind: 'xml', path: pathOf(el) } };
}

export function textField(el: XmlElement | undefined): Field<string> | undefined {
  const value = textOf(el);
  return el && value !== undefined ? xmlField(el, value) : undefined;
}

export function moneyField(
  el: XmlElement | undefined,
  currency: string | undefined,
): Field<bigint> | undefined {
  const value = textOf(el);
  const minor = value === undefined ? null : decimalToMinor(value, currency);
  return el && minor !== null ? xmlField(el, minor) : undefined;
}

export function moneyOf(el: XmlElement | undefined, currency: string | undefined): bigint | null {
  const value = textOf(el);
  return value === undefined ? null : decimalToMinor(value, currency);
}

export function decimalOf(el: XmlElement | undefined): string | null {
  const value = textOf(el);
  return value === undefined ? null : normalizeDecimal(value);
}

/** UNTDID 1001 document type codes: 381 and 396 (factored credit note) are credits, the rest invoices. */
export function documentTypeOf(code: string | undefined, root: string): DocumentType {
  if (root === 'CreditNote' || code === '381' || code === '396' || code === '261' || code === '262') {
    return 'credit_note';
  }
  return 'invoice';
}

/** UNTDID 4461 payment means, reduced to the few methods bookkeeping distinguishes. */
export function paymentMethodOf(code: string): string {
  switch (code) {
    case '10':
      return 'cash';
    case '48':
    case '54':
    case '55':
      return 'card';
    case '30':
    case '31':
    case '42':
    case '58':
      return 'credit_transfer';
    case '49':
    case '59':
      return 'direct_debit';
    default:
      return 'other';
  }
}

/** Last four digits of a (usually masked) card number such as "************1234". */
export function lastFourOf(pan: string | undefined): string | undefined {
  const digits = pan?.replace(/[^0-9]/g, '') ?? '';
  return digits.length >= 4 ? digits.slice(-4) : undefined;
}

/** XML dates: CII format 102 (YYYYMMDD) and ISO dates. */
export function isoDate(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(raw);
  if (compact) return `${compact[1]}-${compact[2]}-${compact[3]}`;
  const iso = /^(\d{4}-\d{2}-\d{2})/.exec(raw);
  return iso?.[1];
}

/** A date element (UBL `IssueDate`, CII `DateTimeString` format 102) as an ISO date field. */
export function dateField(el: XmlElement | undefined): Field<string> | undefined {
  const date = isoDate(textOf(el));
  return el && date ? xmlField(el, date) : undefined;
}

/**
 * BG-14 invoicing period from its start and end date elements (UBL `StartDate`/`EndDate`, CII
 * `StartDateTime`/`EndDateTime`). Only one end printed: a one-day period on it; ends reversed: none.
 */
export function periodField(
  container: XmlElement | undefined,
  startEl: XmlElement | undefined,
  endEl: XmlElement | undefined,
): Field<ServicePeriod> | undefined {
  const start = isoDate(textOf(startEl)) ?? isoDate(textOf(endEl));
  const end = isoDate(textOf(endEl)) ?? start;
  if (!container || !start || !end || start > end) return undefined;
  return xmlField(container, { start, end });
}

export function emptyFields(): ExtractedFields {
  return { taxLines: [], lineItems: [] };
}
