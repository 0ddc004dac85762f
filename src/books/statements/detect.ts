import { StatementFileError, type StatementFormat } from './types.ts';

const NAMES: Record<StatementFormat, string> = {
  csv: 'CSV',
  ofx: 'OFX',
  camt053: 'CAMT.053 XML',
  mt940: 'MT940',
  qif: 'QIF',
};

/**
 * The format the content shows, from its first few kilobytes. CSV is what is left: text with one of
 * the separators and no sign of another format. `xml` is XML that is neither CAMT nor OFX.
 */
export function sniffFormat(head: string): StatementFormat | 'xml' | null {
  const t = head.replace(/^\s+/, '');
  if (/^OFXHEADER\s*:/i.test(t) || /<\?OFX\b/i.test(t) || /^<OFX>/i.test(t)) return 'ofx';
  if (t.startsWith('<')) {
    if (/BkToCstmr(Stmt|AcctRpt|DbtCdtNtfctn)|camt\.05[234]/.test(t)) return 'camt053';
    if (/<OFX>/i.test(t)) return 'ofx';
    return 'xml';
  }
  if (/^!(Type|Option|Account|Clear)/im.test(t)) return 'qif';
  if (t.startsWith('{1:') || (/^:20:/m.test(t) && /^:(25|60[FM]|61):/m.test(t))) return 'mt940';
  if (/[,;\t|]/.test(t)) return 'csv';
  return null;
}

/** Formats a file name or media type allows; null when it says nothing (`.txt`, octet-stream). */
export function expectedFormats(fileName: string, mediaType: string): StatementFormat[] | null {
  const ext = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase() ?? '';
  const byExt: Record<string, StatementFormat[]> = {
    csv: ['csv'],
    tsv: ['csv'],
    ofx: ['ofx'],
    qfx: ['ofx'],
    qbo: ['ofx'],
    xml: ['camt053', 'ofx'],
    camt: ['camt053'],
    '053': ['camt053'],
    sta: ['mt940'],
    '940': ['mt940'],
    mt940: ['mt940'],
    swi: ['mt940'],
    qif: ['qif'],
  };
  const fromExt = byExt[ext];
  if (fromExt !== undefined) return fromExt;
  const type = mediaType.split(';')[0]?.trim().toLowerCase() ?? '';
  const byType: Record<string, StatementFormat[]> = {
    'text/csv': ['csv'],
    'text/tab-separated-values': ['csv'],
    'application/xml': ['camt053', 'ofx'],
    'text/xml': ['camt053', 'ofx'],
    'application/x-ofx': ['ofx'],
    'application/ofx': ['ofx'],
    'application/vnd.intu.qfx': ['ofx'],
    'application/qif': ['qif'],
    'application/x-qif': ['qif'],
  };
  return byType[type] ?? null;
}

/** The format to parse with: what the content shows, if the name and media type agree with it. */
export function decideFormat(head: string, fileName: string, mediaType: string): StatementFormat {
  const sniffed = sniffFormat(head);
  const expected = expectedFormats(fileName, mediaType);
  const what =
    sniffed === 'xml'
      ? 'XML that is neither CAMT.053 nor OFX'
      : sniffed === null
        ? 'not a statement format'
        : NAMES[sniffed];
  if (expected !== null && (sniffed === null || sniffed === 'xml' || !expected.includes(sniffed))) {
    // A CSV name on text nothing else claims is read as CSV (a one-column export still fails later).
    if (expected.includes('csv') && sniffed === null) return 'csv';
    throw new StatementFileError(
      'format_mismatch',
      `'${fileName}' (${mediaType}) is named as ${expected.map((f) => NAMES[f]).join(' or ')} but its content is ${what}`,
    );
  }
  if (sniffed === null || sniffed === 'xml') {
    throw new StatementFileError(
      'unsupported_format',
      `'${fileName}' is ${what}; supported: CSV/TSV, OFX/QFX, CAMT.053, MT940, QIF`,
    );
  }
  return sniffed;
}
