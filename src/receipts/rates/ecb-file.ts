// Reads the ECB's euro foreign exchange reference rates files: the daily `eurofxref-daily.xml`, the
// 90-day `eurofxref-hist-90d.xml` and the full history `eurofxref-hist.xml` share one shape:
//
//   <gesmes:Envelope ...><Cube><Cube time="2026-11-27"><Cube currency="USD" rate="1.0512"/>...
//
// through the project's streaming XML reader (src/books/statements/xml-tree.ts: saxes, no DOCTYPE
// or entity ever, a tree only per captured day, caps on depth, nodes and text per day). A file
// that is not entirely right changes nothing: one bad day, currency or rate refuses the whole file.

import { StatementFileError } from '../../books/statements/types.ts';
import { streamXml, type XmlNode } from '../../books/statements/xml-tree.ts';
import { isDateInRange } from '../../contract/formats.ts';
import { RATES_FILE_LIMITS, type RatesDay, RatesFileError } from './rates-file.ts';

const CURRENCY = /^[A-Z]{3}$/;
// Positive, at most 12 digits before and 10 after the point, as the ECB writes them (`1.0512`, `162.04`).
const RATE = /^\d{1,12}(\.\d{1,10})?$/;
const CHUNK_CHARS = 64 * 1024;

function* chunksOf(text: string): Generator<string> {
  for (let at = 0; at < text.length; at += CHUNK_CHARS) yield text.slice(at, at + CHUNK_CHARS);
}

function readDay(node: XmlNode): RatesDay {
  const date = node.attrs.time ?? '';
  if (!isDateInRange(date))
    throw new RatesFileError(
      'rates_invalid_value',
      `a day's time "${String(date).slice(0, 40)}" is not a date`,
    );
  const rates = new Map<string, string>();
  for (const cube of node.children) {
    const currency = cube.attrs.currency ?? '';
    const rate = cube.attrs.rate ?? '';
    if (cube.name !== 'Cube' || !CURRENCY.test(currency))
      throw new RatesFileError(
        'rates_invalid_value',
        `${date}: "${currency.slice(0, 40)}" is not a currency code`,
      );
    if (!RATE.test(rate) || Number(rate) <= 0)
      throw new RatesFileError(
        'rates_invalid_value',
        `${date} ${currency}: "${rate.slice(0, 40)}" is not a positive rate`,
      );
    if (rates.has(currency))
      throw new RatesFileError('rates_invalid_value', `${date}: ${currency} is given twice`);
    rates.set(currency, rate);
  }
  if (rates.size > RATES_FILE_LIMITS.currencies)
    throw new RatesFileError(
      'rates_limit_exceeded',
      `${date} lists more than ${RATES_FILE_LIMITS.currencies} currencies`,
    );
  return { date, rates };
}

function fromReader(error: StatementFileError): RatesFileError {
  const code =
    error.code === 'unsafe_xml'
      ? 'rates_unsafe_xml'
      : error.code === 'limit_exceeded'
        ? 'rates_limit_exceeded'
        : 'rates_malformed_file';
  return new RatesFileError(code, error.message);
}

/** The days of an ECB reference rates file, newest first as the ECB writes them; throws RatesFileError. */
export function parseEcbRates(bytes: Uint8Array): RatesDay[] {
  if (bytes.length > RATES_FILE_LIMITS.bytes)
    throw new RatesFileError(
      'rates_file_too_large',
      `the file is larger than ${RATES_FILE_LIMITS.bytes} bytes`,
    );
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new RatesFileError('rates_malformed_file', 'the file is not UTF-8 text');
  }
  const days: RatesDay[] = [];
  const seen = new Set<string>();
  let elements = 0;
  // The XML reader turns any error a handler throws into its own `malformed_file`; the first
  // problem is kept here and a plain stop is thrown, so the code given is the problem's own.
  let problem: RatesFileError | undefined;
  const stop = (error: RatesFileError): never => {
    problem ??= error;
    throw new StatementFileError('malformed_file', error.message);
  };
  try {
    const stream = streamXml(chunksOf(text), {
      capture(path) {
        elements++;
        if (elements > RATES_FILE_LIMITS.elements)
          throw new StatementFileError(
            'limit_exceeded',
            `more than ${RATES_FILE_LIMITS.elements} elements outside the days`,
          );
        return path.length === 3 && path[0] === 'Envelope' && path[1] === 'Cube' && path[2] === 'Cube';
      },
      captured(node) {
        let day: RatesDay;
        try {
          day = readDay(node);
        } catch (error) {
          return stop(error as RatesFileError);
        }
        if (seen.has(day.date)) stop(new RatesFileError('rates_invalid_value', `${day.date} is given twice`));
        if (days.length >= RATES_FILE_LIMITS.days)
          stop(new RatesFileError('rates_limit_exceeded', `more than ${RATES_FILE_LIMITS.days} days`));
        seen.add(day.date);
        days.push(day);
      },
    });
    for (const _ of stream);
  } catch (error) {
    if (problem !== undefined) throw problem;
    if (error instanceof StatementFileError) throw fromReader(error);
    throw error;
  }
  if (days.every((day) => day.rates.size === 0))
    throw new RatesFileError(
      'rates_not_ecb_format',
      'no rates found: expected <gesmes:Envelope><Cube><Cube time="YYYY-MM-DD"><Cube currency="USD" rate="1.05"/>',
    );
  return days;
}
