import type { Field, ServicePeriod } from '../types.ts';
import type { FieldMaker, TextLine } from './heuristics.ts';
import { datesIn, type Found } from './values.ts';

// The service period a subscription invoice bills ("Billing period Oct 1 - Oct 31, 2026",
// "Leistungszeitraum 01.10.2026 - 31.10.2026", "Période du 1er au 31 octobre 2026", "Periodo
// dal 01/10/2026 al 31/10/2026"). Dates are read with the reader's one date grammar (datesIn);
// a start printed without its year (or month) takes them from the end before it is read the same
// way. A labelled range is sure; a bare range of two dates ("Pro plan 01.10.2026 – 31.10.2026")
// is likely. Dates inside the period are never the document's date (dates.ts skips them).

/** Labels of a billing or service period, EN/DE/FR/ES/IT/NL/PT. */
const periodLabel =
  /(?<![\p{L}])(billing\s*period|service\s*period|subscription\s*period|billing\s*cycle|period\s*of\s*service|service\s*dates?|period\s*covered|billed\s*for|leistungszeitraum|abrechnungszeitraum|abrechnungsperiode|lieferzeitraum|leistungsperiode|zeitraum|p[ée]riode\s*de\s*(?:facturation|service|consommation|validit[ée]|l'abonnement|r[ée]f[ée]rence)|p[ée]riode\s*factur[ée]e|periodo\s*de\s*(?:facturaci[oó]n|servicio|consumo|fatura[çc][ãa]o)|periodo\s*(?:di\s*)?(?:fatturazione|riferimento|competenza)|periodo\s*facturado|factuurperiode|facturatieperiode|abonnementsperiode|looptijd|p[ée]riode|periodo|periode|period)(?![\p{L}])\s*[:.]?/iu;

/** What stands between a start and an end: a dash or a word for "to". */
const SEP =
  '(?:\\s*[-–—~]\\s*|\\s+(?:to|through|thru|until|till|bis(?:\\s+(?:zum|einschließlich|einschl\\.))?|au|al|à|a|at[ée]|tot(?:\\s+en\\s+met)?|t/m|hasta(?:\\s+el)?|fino\\s+al)\\s+(?:(?:le|el|the|il|den)\\s+)?)';
const between = new RegExp(`^,?${SEP}$`, 'iu');
const tail = new RegExp(`(\\S(?:.*\\S)?)${SEP}$`, 'iu');

/** The longest a period runs: a year and a bit (annual plans printed with both ends included). */
const MAX_DAYS = 400;

interface Range extends Found<ServicePeriod> {
  /** The start was a bare day number ("1 - 31 Oct 2026"): only trusted after a label. */
  dayOnly: boolean;
}

function daySpan(start: string, end: string): number {
  return (Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000;
}

/** A date that `text` is, whole (not one inside it). */
function wholeDate(text: string, usOrder: boolean): string | undefined {
  const found = datesIn(text, usOrder);
  const only = found[0];
  return found.length === 1 && only && only.start === 0 && only.end === text.length ? only.value : undefined;
}

/**
 * A start printed without what the end gives ("Oct 1", "1 Oct", "01.10.", "10/01", "1er", "1."):
 * the end's year (and month, for a bare day) added, then read as any date.
 */
function completeStart(
  fragment: string,
  end: string,
  usOrder: boolean,
): { value: string; dayOnly: boolean } | undefined {
  const tokens = fragment.split(/\s+/).filter(Boolean);
  for (let take = Math.min(3, tokens.length); take >= 1; take--) {
    const piece = tokens.slice(-take).join(' ');
    const day = /^(\d{1,2})(?:\.|er|º|st|nd|rd|th)?$/iu.exec(piece);
    const attempts = (year: number) =>
      day
        ? [`${year}-${end.slice(5, 7)}-${day[1]?.padStart(2, '0')}`]
        : [`${piece} ${year}`, `${piece}${year}`, `${piece}/${year}`, `${piece}.${year}`, `${piece}-${year}`];
    const year = Number(end.slice(0, 4));
    // A start after the end is in the year before ("Dec 15 - Jan 14, 2027").
    for (const y of day ? [year] : [year, year - 1]) {
      for (const attempt of attempts(y)) {
        const value = wholeDate(attempt.trim(), usOrder);
        if (value && value <= end) return { value, dayOnly: day !== null };
      }
    }
  }
  return undefined;
}

/** The first date range in `text`: two dates joined by a dash or "to", or a yearless start and an end. */
export function rangeIn(text: string, usOrder: boolean): Range | undefined {
  const dates = datesIn(text, usOrder);
  for (let i = 0; i < dates.length; i++) {
    const end = dates[i] as Found<string>;
    const prev = dates[i - 1];
    if (prev && between.test(text.slice(prev.end, end.start))) {
      if (prev.value <= end.value && daySpan(prev.value, end.value) <= MAX_DAYS) {
        return {
          value: { start: prev.value, end: end.value },
          start: prev.start,
          end: end.end,
          dayOnly: false,
        };
      }
      continue;
    }
    const from = prev?.end ?? 0;
    const m = tail.exec(text.slice(from, end.start));
    if (!m?.[1]) continue;
    const start = completeStart(m[1], end.value, usOrder);
    if (start && daySpan(start.value, end.value) <= MAX_DAYS) {
      const fragmentStart = from + (m.index ?? 0);
      return {
        value: { start: start.value, end: end.value },
        start: fragmentStart,
        end: end.end,
        dayOnly: start.dayOnly,
      };
    }
  }
  return undefined;
}

export interface PeriodRead {
  field?: Field<ServicePeriod>;
  /** Where the period's dates were printed: never taken for the document date or a due date. */
  spans: Array<{ line: TextLine; start: number; end: number }>;
}

export function periodOf(lines: TextLine[], f: FieldMaker, usOrder: boolean): PeriodRead {
  const spans: PeriodRead['spans'] = [];
  let labelled: Field<ServicePeriod> | undefined;
  let bare: Field<ServicePeriod> | undefined;
  lines.forEach((line, i) => {
    const label = periodLabel.exec(line.text);
    if (label) {
      const after = label.index + label[0].length;
      const same = rangeIn(line.text.slice(after), usOrder);
      if (same) {
        const found = { ...same, start: same.start + after, end: same.end + after };
        spans.push({ line, start: found.start, end: found.end });
        labelled ??= f.make(line, found, same.value, 0.9);
        return;
      }
      const next = lines[i + 1];
      const below = next && next.page === line.page ? rangeIn(next.text, usOrder) : undefined;
      if (next && below) {
        spans.push({ line: next, start: below.start, end: below.end });
        labelled ??= f.make(next, below, below.value, 0.75);
        return;
      }
    }
    const range = rangeIn(line.text, usOrder);
    // A bare range needs two different days: "01.10.2026 - 01.10.2026" is a date, not a period.
    if (range && !range.dayOnly && range.value.start < range.value.end) {
      spans.push({ line, start: range.start, end: range.end });
      bare ??= f.make(line, range, range.value, 0.7);
    }
  });
  return { field: labelled ?? bare, spans };
}
