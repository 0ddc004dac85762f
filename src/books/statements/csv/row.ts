import { parseDate } from '../dates.ts';
import { type DecimalSeparator, isCurrencyCode, parseAmount } from '../money.ts';
import { fold } from '../text.ts';
import { type CsvColumnMapping, StatementFileError, type StatementItem } from '../types.ts';
import { normalizeHeader } from './header.ts';

/** Mapping fields resolved to 0-based column indexes (null: no such column). */
export interface Columns {
  date: number;
  fallbackDate: number | null;
  amount: number | null;
  debit: number | null;
  credit: number | null;
  debitCreditMarker: number | null;
  description: number | null;
  valueDate: number | null;
  reference: number | null;
  counterpartyName: number | null;
  counterpartyIban: number | null;
  currency: number | null;
  status: number | null;
  account: number | null;
}

export function resolveColumns(mapping: CsvColumnMapping, headers: string[]): Columns {
  const find = (field: string, ref: string | number | undefined): number | null => {
    if (ref === undefined || ref === '') return null;
    if (typeof ref === 'number') return ref;
    let at = headers.indexOf(ref);
    if (at < 0) at = headers.findIndex((h) => normalizeHeader(h) === normalizeHeader(ref));
    if (at < 0) {
      throw new StatementFileError(
        'unknown_columns',
        `the mapping's ${field} column '${ref}' is not in the header; headers seen: ${headers.join(', ')}`,
      );
    }
    return at;
  };
  const date = find('date', mapping.date);
  if (date === null) throw new StatementFileError('unknown_columns', 'the mapping names no date column');
  const columns: Columns = {
    date,
    fallbackDate: find('fallbackDate', mapping.fallbackDate),
    amount: find('amount', mapping.amount),
    debit: find('debit', mapping.debit),
    credit: find('credit', mapping.credit),
    debitCreditMarker: find('debitCreditMarker', mapping.debitCreditMarker),
    description: find('description', mapping.description),
    valueDate: find('valueDate', mapping.valueDate),
    reference: find('reference', mapping.reference),
    counterpartyName: find('counterpartyName', mapping.counterpartyName),
    counterpartyIban: find('counterpartyIban', mapping.counterpartyIban),
    currency: find('currency', mapping.currency),
    status: find('status', mapping.status),
    account: find('account', mapping.account),
  };
  if (columns.amount === null && (columns.debit === null || columns.credit === null)) {
    throw new StatementFileError(
      'unknown_columns',
      'the mapping needs an amount column, or both debit and credit columns',
    );
  }
  return columns;
}

/** Status texts of rows the bank has not booked yet (Revolut PENDING, Sparkasse "Umsatz vorgemerkt"). */
const PENDING = /pending|vorgemerkt|attente|not booked|nicht gebucht|reserved|authori[sz]ed/i;

export interface RowRules {
  dateFormat: string;
  decimalSeparator: DecimalSeparator;
  sign: 'as_is' | 'invert';
  currency: string;
  /** With a marker column: what an empty marker means (the kind the file leaves unmarked). */
  unmarked: 'credit' | 'debit';
}

/** `credit`, `debit` or null for a marker cell (CR/DR, C/D, Credit/Debit, H/S = Haben/Soll, +/-). */
export function markerKind(text: string): 'credit' | 'debit' | null {
  const t = normalizeHeader(text);
  if (/^(cr|c|credit|crdt|haben|h|\+|in|credito|credit card payment)$/.test(t) || text.trim() === '+')
    return 'credit';
  if (/^(dr|d|debit|dbit|soll|s|out|debito)$/.test(t) || text.trim() === '-') return 'debit';
  return null;
}

/** One CSV record -> a line, a rejected line with a reason, or null for a row with no content. */
export function readRow(
  row: string[],
  lineNumber: number,
  c: Columns,
  rules: RowRules,
): StatementItem | null {
  const cell = (i: number | null): string => (i === null ? '' : fold(row[i] ?? ''));
  if (row.every((v) => v.trim() === '')) return null;
  const reject = (reason: string): StatementItem => ({ kind: 'rejected', lineNumber, reason });

  const currencyCell = cell(c.currency).toUpperCase();
  const currency = isCurrencyCode(currencyCell) ? currencyCell : rules.currency;
  let dateText = cell(c.date);
  if (dateText === '') dateText = cell(c.fallbackDate);
  const amountCells = [cell(c.amount), cell(c.debit), cell(c.credit)];
  if (dateText === '' && amountCells.every((v) => v === '')) return null;
  const bookedDate = parseDate(dateText, rules.dateFormat);
  if (bookedDate === null) return reject(`date '${dateText}' is not a date like ${rules.dateFormat}`);

  let amount: bigint;
  if (c.amount !== null) {
    const parsed = parseAmount(cell(c.amount), rules.decimalSeparator, currency);
    if (!parsed.ok) return reject(parsed.reason);
    amount = parsed.minor;
    if (c.debitCreditMarker !== null) {
      const marker = cell(c.debitCreditMarker);
      const kind = marker === '' ? rules.unmarked : markerKind(marker);
      if (kind === null)
        return reject(`debit/credit marker '${marker}' is neither credit (CR, C) nor debit (DR, D)`);
      const size = amount < 0n ? -amount : amount;
      amount = kind === 'credit' ? size : -size;
    }
  } else {
    const debitText = cell(c.debit);
    const creditText = cell(c.credit);
    if (debitText === '' && creditText === '')
      return reject('neither the debit nor the credit column has an amount');
    const debit =
      debitText === ''
        ? { ok: true as const, minor: 0n }
        : parseAmount(debitText, rules.decimalSeparator, currency);
    const credit =
      creditText === ''
        ? { ok: true as const, minor: 0n }
        : parseAmount(creditText, rules.decimalSeparator, currency);
    if (!debit.ok) return reject(debit.reason);
    if (!credit.ok) return reject(credit.reason);
    // Both columns hold positive amounts; some banks still write the debit with a minus.
    amount =
      (credit.minor < 0n ? -credit.minor : credit.minor) - (debit.minor < 0n ? -debit.minor : debit.minor);
  }
  if (rules.sign === 'invert') amount = -amount;

  const valueText = cell(c.valueDate);
  const counterpartyName = cell(c.counterpartyName);
  const iban = cell(c.counterpartyIban).replace(/\s/g, '');
  const reference = cell(c.reference);
  const account = cell(c.account).replace(/\s/g, '');
  return {
    kind: 'line',
    line: {
      lineNumber,
      accountRef: account === '' ? null : account,
      bookedDate,
      valueDate: valueText === '' ? null : parseDate(valueText, rules.dateFormat),
      amountMinor: amount,
      currency,
      originalAmountMinor: null,
      originalCurrency: null,
      description: cell(c.description) || counterpartyName,
      counterpartyName: counterpartyName === '' ? null : counterpartyName,
      counterpartyIban: iban === '' ? null : iban,
      bankReference: reference === '' ? null : reference,
      pending: PENDING.test(cell(c.status)),
      cardLastFour: null,
      feesMinor: null,
    },
  };
}
