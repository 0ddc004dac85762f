import { parseCamt053 } from './camt053.ts';
import { parseCsv } from './csv/parse.ts';
import { decideFormat } from './detect.ts';
import { parseMt940 } from './mt940.ts';
import { parseOfx } from './ofx.ts';
import { parseQif } from './qif.ts';
import {
  assertLinesBounded,
  byteOrderMark,
  decodeChunks,
  decodeHead,
  decodeText,
  detectEncoding,
  stripTransmissionFraming,
} from './text.ts';
import { StatementFileError, type StatementParse, type StatementSource } from './types.ts';

export * from './types.ts';

/**
 * Reads a bank statement file: detects its format from the content, checks the name and media type
 * agree, and hands it to the format's parser. Throws StatementFileError right away for what can be
 * seen before reading lines (empty, wrong format, bad encoding, unsafe XML, unknown CSV columns, an
 * over-long line); `items` throws it for what shows up later (truncated XML or OFX).
 */
export function parseStatement(source: StatementSource): StatementParse {
  const bytes = stripTransmissionFraming(source.bytes);
  if (bytes.length === 0 || bytes.every((b) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d)) {
    throw new StatementFileError('empty_file', `'${source.fileName}' is empty`);
  }
  const headText = decodeHead(bytes);
  const format = decideFormat(headText, source.fileName, source.mediaType);
  const bom = byteOrderMark(bytes);
  // Before anything builds a string of the whole file. XML has no lines to speak of (a CAMT file may
  // be a single line), so XML is bounded by its parser instead.
  if (format !== 'camt053' && !(format === 'ofx' && headText.trimStart().startsWith('<?xml'))) {
    assertLinesBounded(bytes, bom?.encoding);
  }
  const { encoding, bomLength } = detectEncoding(bytes);
  if (format === 'camt053') {
    // Decoded chunk by chunk: a 20 MB CAMT file never becomes one 40 MB string.
    return { detection: { format, encoding }, items: parseCamt053(decodeChunks(bytes, encoding, bomLength)) };
  }
  const text = decodeText(bytes, encoding, bomLength);
  switch (format) {
    case 'csv':
      return parseCsv(source, text, encoding);
    case 'ofx':
      return { detection: { format, encoding }, items: parseOfx(text) };
    case 'mt940':
      return { detection: { format, encoding }, items: parseMt940(text, source.accountCurrency) };
    case 'qif':
      return { detection: { format, encoding }, items: parseQif(text, source.accountCurrency) };
    default:
      throw new StatementFileError(
        'unsupported_format',
        `'${source.fileName}' is not a supported statement format`,
      );
  }
}
