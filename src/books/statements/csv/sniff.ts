import { parseDate } from '../dates.ts';
import { type CsvColumnMapping, StatementFileError } from '../types.ts';
import { normalizeHeader, recognisedNames, recogniseHeader } from './header.ts';

export const SEPARATORS = [',', ';', '\t', '|'] as const;

/** How many lines may come before the header (ING Germany writes about a dozen). */
const MAX_PREAMBLE_LINES = 40;

/** Splits one line on `sep`, honouring double quotes (only for sniffing; csv-parse reads the rows). */
export function splitLine(line: string, sep: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') {
      if (quoted && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else quoted = !quoted;
    } else if (c === sep && !quoted) {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return cells.map((x) => x.trim());
}

export interface HeaderFound {
  /** 1-based line of the header; 0 when the file has none (a mapping by index only). */
  headerLine: number;
  /** Offset in the text where the header (or the first data row) starts. */
  offset: number;
  separator: string;
  headers: string[];
  mapping: CsvColumnMapping;
}

function* firstLines(text: string): Generator<{ line: string; lineNumber: number; offset: number }> {
  const re = /\r\n|\n|\r/g;
  let offset = 0;
  for (let lineNumber = 1; lineNumber <= MAX_PREAMBLE_LINES && offset < text.length; lineNumber++) {
    const m = re.exec(text);
    const end = m === null ? text.length : m.index;
    yield { line: text.slice(offset, end), lineNumber, offset };
    if (m === null) return;
    offset = m.index + m[0].length;
  }
}

function mappingNames(mapping: CsvColumnMapping): string[] {
  const keys = [
    'date',
    'fallbackDate',
    'amount',
    'debit',
    'credit',
    'description',
    'valueDate',
    'reference',
    'counterpartyName',
    'counterpartyIban',
    'currency',
    'status',
    'account',
  ] as const;
  return keys.flatMap((k) => {
    const v = mapping[k];
    return typeof v === 'string' && v !== '' ? [v] : [];
  });
}

/** Finds the header row (after any preamble) and the separator, and the mapping to use. */
export function findHeader(text: string, given: CsvColumnMapping | undefined, fileName: string): HeaderFound {
  const tsv = /\.tsv$/i.test(fileName);
  let best: (HeaderFound & { score: number }) | null = null;
  let firstNonEmpty: { line: string; lineNumber: number; offset: number } | null = null;
  for (const candidate of firstLines(text)) {
    if (candidate.line.trim() === '') continue;
    firstNonEmpty ??= candidate;
    for (const separator of tsv ? (['\t'] as const) : SEPARATORS) {
      if (!candidate.line.includes(separator)) continue;
      const headers = splitLine(candidate.line, separator);
      if (given !== undefined) {
        const wanted = mappingNames(given);
        const norm = headers.map(normalizeHeader);
        const hits = wanted.filter((w) => headers.includes(w) || norm.includes(normalizeHeader(w))).length;
        if (wanted.length > 0 && hits === wanted.length && (best === null || hits > best.score)) {
          best = {
            headerLine: candidate.lineNumber,
            offset: candidate.offset,
            separator,
            headers,
            mapping: given,
            score: hits,
          };
        }
        continue;
      }
      const recognised = recogniseHeader(headers);
      if (recognised !== null && (best === null || recognised.score > best.score)) {
        best = {
          headerLine: candidate.lineNumber,
          offset: candidate.offset,
          separator,
          headers,
          mapping: recognised.mapping,
          score: recognised.score,
        };
      }
    }
  }
  if (best !== null) {
    const { score: _score, ...found } = best;
    return found;
  }
  if (given !== undefined && mappingNames(given).length === 0 && firstNonEmpty !== null) {
    return indexOnly(firstNonEmpty, given, tsv);
  }
  const seen =
    firstNonEmpty === null ? [] : splitLine(firstNonEmpty.line, mostFrequentSeparator(firstNonEmpty.line));
  if (given !== undefined) {
    throw new StatementFileError(
      'unknown_columns',
      `the mapping names columns (${mappingNames(given).join(', ')}) that no header row has; headers seen: ${seen.join(', ')}`,
    );
  }
  throw new StatementFileError(
    'unknown_columns',
    `no header row with a date and an amount column was recognised; headers seen: ${seen.join(', ') || '(none)'}. ` +
      `Give a column mapping, or use a header the parser knows: ${recognisedNames()}`,
  );
}

/** A mapping by column index only: the first line is data unless its date cell is not a date. */
function indexOnly(
  first: { line: string; lineNumber: number; offset: number },
  given: CsvColumnMapping,
  tsv: boolean,
): HeaderFound {
  const separator = tsv ? '\t' : mostFrequentSeparator(first.line);
  const headers = splitLine(first.line, separator);
  const dateCell = typeof given.date === 'number' ? (headers[given.date] ?? '') : '';
  const isData = ['yyyy-MM-dd', 'dd.MM.yyyy', 'dd/MM/yyyy', 'MM/dd/yyyy', 'dd.MM.yy'].some(
    (f) => parseDate(dateCell, given.dateFormat ?? f) !== null,
  );
  return {
    headerLine: isData ? 0 : first.lineNumber,
    offset: first.offset,
    separator,
    headers: isData ? [] : headers,
    mapping: given,
  };
}

function mostFrequentSeparator(line: string): string {
  let best: string = ',';
  let count = 0;
  for (const s of SEPARATORS) {
    const n = splitLine(line, s).length;
    if (n > count) {
      best = s;
      count = n;
    }
  }
  return best;
}
