import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import { detectDateFormat } from '../dates.ts';
import { type DecimalSeparator, guessDecimalSeparator, isCurrencyCode, parseAmount } from '../money.ts';
import type { TextEncoding } from '../text.ts';
import {
  type CsvColumnMapping,
  StatementFileError,
  type StatementItem,
  type StatementParse,
  type StatementSource,
} from '../types.ts';
import { type Columns, markerKind, readRow, resolveColumns } from './row.ts';
import { findHeader } from './sniff.ts';

/** Rows read ahead to detect the date format, the decimal separator and the card sign convention. */
const SAMPLE_ROWS = 200;
const CHUNK_CHARS = 64 * 1024;

/**
 * A column index beyond every row read fails the file with its reason, rather than rejecting each
 * line for a missing cell (issue 27): the mapping is what is wrong, and one message says so.
 */
function assertColumnsInFile(columns: Columns, sample: string[][], headers: string[]): void {
  const width = Math.max(headers.length, ...sample.map((row) => row.length));
  if (sample.length === 0 && headers.length === 0) return;
  for (const [field, index] of Object.entries(columns)) {
    if (index !== null && index >= width) {
      throw new StatementFileError(
        'unknown_columns',
        `the mapping's ${field} column ${index} is beyond the file: its rows have ${width} columns (indexes 0 to ${width - 1})`,
      );
    }
  }
}

export function parseCsv(source: StatementSource, text: string, encoding: TextEncoding): StatementParse {
  const header = findHeader(text, source.mapping, source.fileName);
  const columns = resolveColumns(header.mapping, header.headers);
  const body = text.slice(header.offset);
  const sample = sampleRows(body, header.separator, header.headerLine === 0 ? 0 : 1);
  const cell = (row: string[], i: number | null): string => (i === null ? '' : (row[i] ?? '').trim());

  assertColumnsInFile(columns, sample, header.headers);
  const given = header.mapping;
  const dateSamples = sample.map((r) => cell(r, columns.date)).filter((v) => v !== '');
  // A header without rows has nothing to detect from: any format reads its zero rows.
  const dateFormat =
    given.dateFormat ??
    (dateSamples.length === 0 ? 'yyyy-MM-dd' : detectDateFormat(dateSamples, source.accountCurrency));
  if (dateFormat === null) {
    throw new StatementFileError(
      'malformed_file',
      `the date column holds values like '${dateSamples[0] ?? ''}' that are not dates in a known format ` +
        '(dd.MM.yyyy, MM/dd/yyyy, yyyy-MM-dd, ...): give dateFormat in the mapping',
    );
  }
  const amountSamples = sample.flatMap((r) => [
    cell(r, columns.amount),
    cell(r, columns.debit),
    cell(r, columns.credit),
  ]);
  const decimalSeparator: DecimalSeparator =
    given.decimalSeparator ?? guessDecimalSeparator(amountSamples, header.separator === ';' ? ',' : '.');
  assertSomeMoney(sample, decimalSeparator, source.accountCurrency, header.headers, columns);
  // A marker column gives each row its sign: no card convention on top of it.
  const sign =
    given.sign ?? (columns.debitCreditMarker === null ? cardSign(source, columns, sample) : 'as_is');
  const unmarked = unmarkedKind(sample, columns);
  const mapping: CsvColumnMapping = { ...given, dateFormat, decimalSeparator, sign };
  const lineOffset = header.headerLine === 0 ? lineOf(text, header.offset) - 1 : header.headerLine - 1;
  return {
    detection: {
      format: 'csv',
      mapping,
      encoding,
      separator: header.separator,
      dateFormat,
      decimalSeparator,
      headerLine: header.headerLine,
    },
    items: readRows(body, header.separator, header.headerLine !== 0, lineOffset, (row, lineNumber) =>
      readRow(row, lineNumber, columns, {
        dateFormat,
        decimalSeparator,
        sign,
        currency: source.accountCurrency,
        unmarked,
      }),
    ),
  };
}

/**
 * A money column in which not one sampled cell is an amount is a wrong mapping or a wrong file,
 * not a few bad rows: the whole file is refused rather than every line rejected.
 */
function assertSomeMoney(
  rows: string[][],
  decimal: DecimalSeparator,
  accountCurrency: string,
  headers: string[],
  c: Columns,
): void {
  const filled: string[] = [];
  for (const row of rows) {
    const code = (c.currency === null ? '' : (row[c.currency] ?? '')).trim().toUpperCase();
    const currency = isCurrencyCode(code) ? code : accountCurrency;
    for (const i of [c.amount, c.debit, c.credit]) {
      const v = i === null ? '' : (row[i] ?? '').trim();
      if (v === '') continue;
      if (parseAmount(v, decimal, currency).ok) return;
      filled.push(v);
    }
  }
  if (filled.length === 0) return;
  const column = [c.amount, c.debit, c.credit].flatMap((i) =>
    i === null ? [] : [headers[i] ?? `column ${i + 1}`],
  );
  throw new StatementFileError(
    'malformed_file',
    `the amount column (${column.join(', ')}) holds no amounts: values like '${filled[0] ?? ''}' are not numbers like ${
      decimal === ',' ? '1.234,56' : '1,234.56'
    }; check the column mapping`,
  );
}

/**
 * Card accounts: when the mapping says nothing and the export has one amount column, a card export
 * that shows purchases as positive numbers is recognised by most sampled amounts being positive.
 */
function cardSign(source: StatementSource, columns: Columns, sample: string[][]): 'as_is' | 'invert' {
  if (source.accountKind !== 'credit_card' || columns.amount === null) return 'as_is';
  let positive = 0;
  let negative = 0;
  for (const r of sample) {
    const v = (r[columns.amount] ?? '').trim();
    if (/(CR|DR)$|^(CR|DR)/i.test(v)) return 'as_is'; // the cells carry their own sign
    if (/^-|-$|^\(/.test(v)) negative++;
    else if (/\d/.test(v) && !/^[+]?0+([.,]0+)?$/.test(v)) positive++;
  }
  return positive > negative ? 'invert' : 'as_is';
}

/** Card exports mark only payments (CR): empty markers are then debits, and credits when only DR shows. */
function unmarkedKind(sample: string[][], columns: Columns): 'credit' | 'debit' {
  if (columns.debitCreditMarker === null) return 'debit';
  const at = columns.debitCreditMarker;
  const kinds = new Set(sample.map((r) => markerKind(r[at] ?? '')));
  return kinds.has('debit') && !kinds.has('credit') ? 'credit' : 'debit';
}

function sampleRows(body: string, delimiter: string, skip: number): string[][] {
  let end = 0;
  for (let n = 0; n < SAMPLE_ROWS + skip && end >= 0; n++) end = body.indexOf('\n', end + 1);
  const slice = end < 0 ? body : body.slice(0, end);
  try {
    const rows = parseSync(slice, {
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
    }) as string[][];
    return rows.slice(skip);
  } catch {
    return [];
  }
}

function lineOf(text: string, offset: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

async function* readRows(
  body: string,
  delimiter: string,
  hasHeader: boolean,
  lineOffset: number,
  toItem: (row: string[], lineNumber: number) => StatementItem | null,
): AsyncGenerator<StatementItem> {
  const chunks = function* (): Generator<string> {
    for (let at = 0; at < body.length; at += CHUNK_CHARS) yield body.slice(at, at + CHUNK_CHARS);
  };
  const parser = Readable.from(chunks()).pipe(
    parse({ delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, info: true }),
  );
  let first = true;
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      if (first && hasHeader) {
        first = false;
        continue;
      }
      first = false;
      const item = toItem(record, lineOffset + info.lines);
      if (item !== null) yield item;
    }
  } catch (error) {
    if (error instanceof StatementFileError) throw error;
    throw new StatementFileError('malformed_file', `the CSV cannot be read: ${(error as Error).message}`);
  }
}
