import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  parseStatement,
  type StatementDetection,
  type StatementLine,
  type StatementSource,
} from '../../../src/books/statements/index.ts';
import { sampleBytes } from '../../support/samples.ts';

export const FIXTURES = path.resolve('test', 'books', 'statements', 'fixtures');

/** A real statement from the third-party samples (test/support/samples.ts). */
export function sampleStatement(file: string): Buffer {
  return sampleBytes(`statements/${file}`);
}

export interface Parsed {
  detection: StatementDetection;
  lines: StatementLine[];
  rejected: Array<{ lineNumber: number; reason: string }>;
}

export async function parseBytes(
  bytes: Buffer,
  fileName: string,
  options: Partial<Omit<StatementSource, 'bytes' | 'fileName'>> = {},
): Promise<Parsed> {
  const parse = parseStatement({
    bytes,
    fileName,
    mediaType: options.mediaType ?? 'application/octet-stream',
    accountCurrency: options.accountCurrency ?? 'EUR',
    accountKind: options.accountKind ?? 'checking',
    ...(options.mapping === undefined ? {} : { mapping: options.mapping }),
  });
  const lines: StatementLine[] = [];
  const rejected: Array<{ lineNumber: number; reason: string }> = [];
  for await (const item of parse.items) {
    if (item.kind === 'line') lines.push(item.line);
    else rejected.push({ lineNumber: item.lineNumber, reason: item.reason });
  }
  return { detection: parse.detection, lines, rejected };
}

export function parseSample(
  file: string,
  options: Partial<Omit<StatementSource, 'bytes' | 'fileName'>> = {},
): Promise<Parsed> {
  return parseBytes(sampleStatement(file), file, options);
}

export function parseFixture(
  file: string,
  options: Partial<Omit<StatementSource, 'bytes' | 'fileName'>> = {},
): Promise<Parsed> {
  return parseBytes(readFileSync(path.join(FIXTURES, file)), file, options);
}

/** The fields a test states; the rest of the line is compared only where a test names it. */
export function pick(
  line: StatementLine | undefined,
  keys: Array<keyof StatementLine>,
): Partial<StatementLine> {
  if (line === undefined) throw new Error('no such line');
  return Object.fromEntries(keys.map((k) => [k, line[k]])) as Partial<StatementLine>;
}

export const sum = (lines: StatementLine[]): bigint => lines.reduce((s, l) => s + l.amountMinor, 0n);

/** `1234.56` or `1234,56` -> cents, written independently of the parser's own amount code. */
export function cents(text: string): bigint {
  const [whole = '0', frac = ''] = text.replace(',', '.').split('.');
  return BigInt(whole) * 100n + BigInt(frac.padEnd(2, '0').slice(0, 2));
}
