import type { CsvColumnMapping } from '../types.ts';

/** Lowercase, accents and `ä`->`a` stripped, punctuation to single spaces, `(EUR)` suffixes dropped. */
export function normalizeHeader(cell: string): string {
  return cell
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\([^)]*\)/g, ' ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

type Field = Exclude<keyof CsvColumnMapping, 'dateFormat' | 'decimalSeparator' | 'sign'>;

/**
 * Header names of usual bank exports (English, German, French), normalized, in order of preference:
 * when an export has both `Buchungstext` (the kind) and `Verwendungszweck` (the text), the earlier
 * name wins.
 */
export const KNOWN_HEADERS: ReadonlyArray<readonly [Field, readonly string[]]> = [
  [
    'date',
    [
      'booking date',
      'posting date',
      'posted date',
      'date processed',
      'processed date',
      'completed date',
      'transaction date',
      'date of transaction',
      'date',
      'trans date',
      'buchungstag',
      'buchungsdatum',
      'buchung',
      'datum',
      'date operation',
      'date de l operation',
      'date comptable',
      'date de comptabilisation',
    ],
  ],
  ['fallbackDate', ['started date', 'authorisation date', 'authorization date']],
  [
    'valueDate',
    ['value date', 'valuta', 'valutadatum', 'wertstellung', 'wertstellungsdatum', 'date de valeur'],
  ],
  ['amount', ['amount', 'transaction amount', 'betrag', 'umsatz', 'montant', 'montant de l operation']],
  [
    'debit',
    [
      'debit',
      'debit amount',
      'debits',
      'withdrawal',
      'withdrawals',
      'money out',
      'paid out',
      'soll',
      'ausgang',
      'belastung',
      'montant debit',
    ],
  ],
  [
    'credit',
    [
      'credit',
      'credit amount',
      'credits',
      'deposit',
      'deposits',
      'money in',
      'paid in',
      'haben',
      'eingang',
      'gutschrift',
      'montant credit',
    ],
  ],
  [
    'description',
    [
      'description',
      'transaction description',
      'details',
      'narrative',
      'memo',
      'verwendungszweck',
      'buchungstext',
      'beschreibung',
      'text',
      'libelle',
      'libelle operation',
      'libelle de l operation',
      'intitule',
    ],
  ],
  [
    'reference',
    [
      'reference',
      'bank reference',
      'transaction id',
      'ref',
      'referenz',
      'kundenreferenz end to end',
      'kundenreferenz',
      'reference de l operation',
    ],
  ],
  [
    'counterpartyName',
    [
      'counterparty',
      'counterparty name',
      'payee',
      'payer',
      'name',
      'merchant',
      'auftraggeber empfanger',
      'auftraggeber empfaenger',
      'beguenstigter zahlungspflichtiger',
      'begunstigter zahlungspflichtiger',
      'empfanger',
      'auftraggeber',
      'beneficiaire',
      'tiers',
      'nom',
    ],
  ],
  [
    'counterpartyIban',
    ['counterparty iban', 'iban', 'kontonummer iban', 'iban des beneficiaires', 'iban beneficiaire'],
  ],
  [
    'debitCreditMarker',
    [
      'cr dr',
      'dr cr',
      'crdr',
      'drcr',
      'debit credit',
      'credit debit',
      'debit credit indicator',
      'credit debit indicator',
      'debit credit flag',
      'cr dr indicator',
      'dr cr indicator',
      'd c',
      'c d',
      'soll haben',
      's h',
      'sens',
    ],
  ],
  ['currency', ['currency', 'ccy', 'wahrung', 'waehrung', 'devise']],
  ['status', ['state', 'status', 'info', 'statut']],
  ['account', ['auftragskonto', 'account', 'account number', 'konto', 'compte']],
];

export interface RecognisedHeader {
  mapping: CsvColumnMapping;
  /** How many cells were recognised (to pick the header row among preamble lines). */
  score: number;
}

/** The mapping a header row gives, or null without at least a date, an amount and a description. */
export function recogniseHeader(cells: string[]): RecognisedHeader | null {
  const names = cells.map(normalizeHeader);
  const taken = new Set<number>();
  const found = new Map<Field, number>();
  for (const [field, candidates] of KNOWN_HEADERS) {
    for (const candidate of candidates) {
      const at = names.findIndex((n, i) => n === candidate && !taken.has(i));
      if (at >= 0) {
        found.set(field, at);
        taken.add(at);
        break;
      }
    }
  }
  const amount = found.get('amount');
  // Several currency columns (ING: one after the balance, one after the amount): the amount's wins.
  if (amount !== undefined) {
    const after = names.findIndex(
      (n, i) => i > amount && ['currency', 'wahrung', 'waehrung', 'devise', 'ccy'].includes(n),
    );
    if (after >= 0) found.set('currency', after);
  }
  const date = found.get('date');
  const hasMoney = amount !== undefined || (found.has('debit') && found.has('credit'));
  if (date === undefined || !hasMoney) return null;
  const header = (i: number | undefined): string | undefined =>
    i === undefined ? undefined : cells[i]?.trim();
  const columns: Partial<Record<Field, string | number>> = {};
  for (const [field, index] of found) {
    // A duplicated header name would be ambiguous by name: use its index instead.
    const unique = names.filter((n) => n === names[index]).length === 1;
    columns[field] = unique ? (header(index) ?? index) : index;
  }
  // Without a description column the counterparty stands in for it.
  const mapping: CsvColumnMapping = {
    ...columns,
    date: columns.date ?? date,
    description: columns.description ?? columns.counterpartyName ?? '',
  };
  return { mapping, score: found.size };
}

/** Every recognised name, for the `unknown_columns` message. */
export function recognisedNames(): string {
  return KNOWN_HEADERS.map(([field, names]) => `${field}: ${names.slice(0, 6).join(', ')}`).join('; ');
}
