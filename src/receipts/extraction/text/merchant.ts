import type { Field } from '../types.ts';
import type { FieldMaker, TextLine } from './heuristics.ts';
import { creditNoteWords, invoiceWords, labels, legalForms, totalLabels } from './labels.ts';

// The merchant (the seller), scored among the text segments of the document:
// - where: the top lines of page 1 (the letterhead), "sold by" / "service provider" lines, and
//   legal names anywhere (footers: "Oravel Stays Private Limited", "Coolblue B.V.");
// - what: a legal form (GmbH, Ltd, B.V., SAS...), a name matching the web or e-mail domain
//   printed, a name printed more than once;
// - never: the bill-to / ship-to / customer block (segments under or beside those labels, in
//   their column), headings ("PAYMENT RECEIPT", "Factuur"), addresses, phones, labels, dates.
// Without any candidate, the web domain's name ("www.laptopshop.nl" -> "Laptopshop").

const billTo =
  /(?<![\p{L}])(bill(?:ed)?\s*to|invoice\s*to|invoiced\s*to|sold\s*to|ship(?:ped)?\s*to|deliver(?:y|ed)?\s*to|customer|client|kunde|rechnungsadresse|lieferadresse|rechnungsempf[äa]nger|factuuradres|afleveradres|klant|factur[ée]\s*[àa]|livr[ée]\s*[àa]|adresse\s*de\s*(?:facturation|livraison)|destinatario|cliente|facturar\s*a|guest(?:\s*name)?|attn|t\.a\.v\.|nom\s*de\s*l.abonn[ée]|to)(?![\p{L}])\s*:?/iu;
const sellerIntro =
  /(?<![\p{L}])(sold\s*by|service\s*provider|seller|vendor|verk[äa]ufer|vendeur|verkoper|vendedor|venditore|issued\s*by|emitido\s*por)\s*:?/iu;
const headings =
  /^(?:(?:tax\s*|payment\s*|sales\s*|cash\s*)?(?:invoice|receipt)|rechnung|quittung|beleg|kassenbon|kundenbeleg|bon|reçu|recu|ticket|facture|factuur|kopie\s*factuur|factura|fattura|fatura|nota|original|copy|duplicate|kopie|summary|invoice\s*summary|welcome|bienvenue|willkommen|thank\s*you.*|merci.*|danke.*|gracias.*|grazie.*|obrigad[oa].*|bedankt.*|table\s*\d*|mesa\s*\d*|tisch\s*\d*)$/iu;
const address =
  /(?<![\p{L}])(street|st\.|str\.|straße|strasse|stra[ßs]e|weg|laan|gracht|plein|rue|avenue|ave\.?|av\.|blvd|boulevard|road|rd\.|lane|drive|dr\.|calle|c\/|via|viale|piazza|rua|avenida|pra[çc]a|suite|floor|building|postfach|bp|cedex|p\.?o\.?\s*box)(?![\p{L}])|\b\d{4,5}\b|\b[A-Z]{2}\s+\d{5}\b|\b\d{4}\s?[A-Z]{2}\b/iu;
const phoneOrWeb =
  /((?<![\p{L}])(tel|phone|fax|telefon|t[ée]l[ée]phone|tele|telf)(?![\p{L}])|www\.|https?:|@|\.(com|nl|de|fr|es|it|pt|be|co\.uk)\b)/iu;
const domainRe = /(?:www\.|https?:\/\/(?:www\.)?|@)([a-z0-9-]{3,})\.[a-z.]{2,}/giu;

/** A short segment that is a field label ("Betrag", "Datum", "Total TTC"), not a name. */
function isLabel(text: string): boolean {
  if (text.split(/\s+/).length > 3) return false;
  const vocabularies = [
    labels.date,
    labels.dueDate,
    labels.net,
    labels.taxTotal,
    labels.amountDue,
    labels.itemsHeader,
    labels.documentNumber,
    labels.taxId,
    ...totalLabels.map(([re]) => re),
  ];
  return vocabularies.some((re) => re.test(text)) && !legalForms.test(text);
}

interface Candidate {
  line: TextLine;
  start: number;
  name: string;
  score: number;
}

const norm = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

function clean(raw: string): { text: string; offset: number } {
  const m = /^[\s*=#~_\-|.,'"‘’“”:;]*(.*?)[\s*=#~_\-|,'"‘’“”:;]*$/u.exec(raw);
  const text = m?.[1] ?? raw;
  return { text, offset: raw.indexOf(text) };
}

/** Segments of a line: runs separated by two or more spaces (layout columns). */
function segments(line: TextLine): { text: string; start: number }[] {
  const out: { text: string; start: number }[] = [];
  for (const m of line.text.matchAll(/\S+(?: \S+)*/g)) out.push({ text: m[0], start: m.index ?? 0 });
  return out;
}

export function merchantOf(lines: TextLine[], f: FieldMaker): Field<string> | undefined {
  const page1 = lines.filter((l) => l.page === 1);
  const all = lines.map((l) => l.text).join('\n');
  const domains = [...all.matchAll(domainRe)]
    .map((m) => (m[1] ?? '').toLowerCase())
    .filter(
      (d) =>
        !/^(gmail|yahoo|hotmail|outlook|gmx|web|icloud|mail|email|info|contact|support|noreply|no-reply)$/.test(
          d,
        ),
    );

  // Columns taken by bill-to blocks: the label's column for the next few lines.
  const excluded = new Set<string>();
  page1.forEach((line, i) => {
    const m = billTo.exec(line.text);
    if (!m) return;
    const column = m.index;
    for (const seg of segments(line)) if (seg.start >= column) excluded.add(`${i}:${seg.start}`);
    for (let k = i + 1; k <= i + 4 && k < page1.length; k++) {
      const below = page1[k];
      if (!below) continue;
      for (const seg of segments(below)) {
        if (f.kind === 'ocr' || Math.abs(seg.start - column) <= 12) excluded.add(`${k}:${seg.start}`);
      }
    }
  });

  const candidates: Candidate[] = [];
  page1.forEach((line, i) => {
    const top = i < 3 ? 3 : i < 8 ? 2 : i < 15 ? 0.5 : 0;
    const introduced = i > 0 && sellerIntro.test(page1[i - 1]?.text ?? '');
    for (const seg of segments(line)) {
      if (excluded.has(`${i}:${seg.start}`)) continue;
      const { text, offset } = clean(seg.text);
      const letters = (text.match(/\p{L}/gu) ?? []).length;
      if (letters < 3 || letters < text.replace(/\s/g, '').length * 0.6) continue;
      if (/[:]/.test(text) || phoneOrWeb.test(text) || address.test(text) || /^\d/.test(text)) continue;
      if (isLabel(text)) continue;
      const legal = [...text.matchAll(new RegExp(legalForms.source, 'giu'))].at(-1);
      const name = legal ? text.slice(0, (legal.index ?? 0) + legal[0].length) : text;
      if (
        headings.test(name) ||
        creditNoteWords.test(name) ||
        (invoiceWords.test(name) && name.split(/\s+/).length <= 2)
      )
        continue;
      if (name.split(/\s+/).length > 6) continue;
      let score = top;
      if (legal && name.split(/\s+/).length >= 2) score += 3;
      if (introduced) score += 3;
      const key = norm(name);
      if (key.length >= 3 && domains.some((d) => key.includes(norm(d)) || norm(d).includes(key))) score += 3;
      if (key.length >= 4 && all.toLowerCase().split(name.toLowerCase()).length > 2) score += 1.5;
      if (score <= 0) continue;
      candidates.push({ line, start: seg.start + offset, name, score });
    }
  });
  candidates.sort((a, b) => b.score - a.score);
  const best = candidates[0];
  if (best) {
    const confidence = best.score >= 5 ? 0.85 : best.score >= 3 ? 0.7 : 0.5;
    return f.make(
      best.line,
      { start: best.start, end: best.start + best.name.length },
      best.name,
      confidence,
    );
  }
  const domain = domains[0];
  const line = domain ? lines.find((l) => l.text.toLowerCase().includes(domain)) : undefined;
  if (domain && line) {
    const at = line.text.toLowerCase().indexOf(domain);
    const name = domain.charAt(0).toUpperCase() + domain.slice(1);
    return f.make(line, { start: at, end: at + domain.length }, name, 0.5);
  }
  return undefined;
}
