import type { Field } from '../types.ts';
import type { FieldMaker, TextLine } from './heuristics.ts';
import { creditNoteWords, invoiceWords, labels, legalForms, totalLabels } from './labels.ts';

// The merchant (the seller), scored among the text segments of the document:
// - where: the top lines of page 1 (the letterhead), "sold by" / "service provider" lines, and
//   legal names anywhere (footers: "Example Stays Private Limited", "Shop B.V.");
// - what: a legal form (GmbH, Ltd, B.V., SAS...), a name matching the web or e-mail domain
//   printed, a name printed more than once;
// - never: the bill-to / ship-to / customer block (segments under or beside those labels, in
//   their column), headings ("PAYMENT RECEIPT", "Factuur"), addresses, phones, labels, dates.
// Without any candidate, the web domain's name ("www.bikeshop.nl" -> "Bikeshop").

const billTo =
  /(?<![\p{L}])(bill(?:ed)?\s*to|invoice\s*to|invoiced\s*to|sold\s*to|ship(?:ped)?\s*to|deliver(?:y|ed)?\s*to|customer|client|kunde|rechnungsadresse|lieferadresse|rechnungsempf[äa]nger|factuuradres|afleveradres|klant|factur[ée]\s*[àa]|livr[ée]\s*[àa]|adresse\s*de\s*(?:facturation|livraison)|destinatario|cliente|facturar\s*a|guest(?:\s*name)?|attn|t\.a\.v\.|nom\s*de\s*l.abonn[ée]|to)(?![\p{L}])\s*:?/iu;
const sellerIntro =
  /(?<![\p{L}])(sold\s*by|service\s*provider|seller|vendor|verk[äa]ufer|vendeur|verkoper|vendedor|venditore|issued\s*by|emitido\s*por|from)\s*:?/iu;
const headings =
  /^(?:(?:tax\s*|payment\s*|sales\s*|cash\s*)?(?:invoice|receipt)|rechnung|quittung|beleg|kassenbon|kundenbeleg|bon|reçu|recu|ticket|facture|factuur|kopie\s*factuur|factura|fattura|fatura|nota|original|copy|duplicate|kopie|summary|invoice\s*summary|welcome|bienvenue|willkommen|thank\s*you.*|merci.*|danke.*|gracias.*|grazie.*|obrigad[oa].*|bedankt.*|table\s*\d*|mesa\s*\d*|tisch\s*\d*)$/iu;
const address =
  /(?<![\p{L}])(street|st\.|str\.|straße|strasse|stra[ßs]e|weg|laan|gracht|plein|rue|avenue|ave\.?|av\.|blvd|boulevard|road|rd\.|lane|drive|dr\.|calle|c\/|via|viale|piazza|rua|avenida|pra[çc]a|suite|floor|building|postfach|bp|cedex|p\.?o\.?\s*box)(?![\p{L}])|\b\d{4,5}\b|\b[A-Z]{2}\s+\d{5}\b|\b\d{4}\s?[A-Z]{2}\b/iu;
const phoneOrWeb =
  /((?<![\p{L}])(tel|phone|fax|telefon|t[ée]l[ée]phone|tele|telf)(?![\p{L}])|www\.|https?:|@|\.(com|nl|de|fr|es|it|pt|be|co\.uk)\b)/iu;
const footer =
  /(si[èe]ge\s*social|capital\s*(?:social|de)|rcs|registered\s*(?:office|in)|company\s*(?:reg|no)|handelsregister|amtsgericht|registergericht|gesch[äa]ftsf[üu]hrer|kvk|kamer\s*van\s*koophandel|registro\s*mercantil|registro\s*delle\s*imprese|corporate\s*office|cin\b)/iu;
const currencyWord = /^(EUR|USD|GBP|CHF|EURO|INR|RON|Rs\.?)$/u;
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
  end: number;
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
  // A sender line ("QualityHosting AG - Uferweg 40-42 - D-63571 Gelnhausen") joins its parts with dashes or bars.
  for (const m of line.text.matchAll(/\S+(?: (?![-|·•–] )\S+)*/g)) {
    if (/^[-|·•–]$/.test(m[0])) continue;
    out.push({ text: m[0], start: m.index ?? 0 });
  }
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
    for (const m of line.text.matchAll(new RegExp(billTo.source, 'giu'))) {
      const column = m.index ?? 0;
      const end = column + m[0].length;
      for (const seg of segments(line))
        if (seg.start >= column && seg.start <= end + 30) excluded.add(`${i}:${seg.start}`);
      for (let k = i + 1; k <= i + 4 && k < page1.length; k++) {
        const below = page1[k];
        if (!below || sellerIntro.test(below.text)) break;
        for (const seg of segments(below)) {
          if (f.kind === 'ocr' || Math.abs(seg.start - column) <= 12) excluded.add(`${k}:${seg.start}`);
        }
      }
    }
  });

  const candidates: Candidate[] = [];
  page1.forEach((line, i) => {
    const top = i < 3 ? 3 : i < 8 ? 2 : i < 15 ? 0.5 : 0;
    const introduced = i > 0 && sellerIntro.test(page1[i - 1]?.text ?? '');
    const segs = segments(line);
    // "Sold By : WS Retail Services Pvt. Ltd.,": the seller named inline.
    const inline = sellerIntro.exec(line.text);
    if (inline) {
      const from = inline.index + inline[0].length;
      const m = /^\s*([^,;:]{3,60})/u.exec(line.text.slice(from));
      const name = m?.[1]?.trim();
      if (m && name && /\p{L}{3}/u.test(name)) {
        const start = from + m[0].length - (m[1]?.length ?? 0);
        candidates.push({ line, start, end: start + name.length, name, score: 6 });
      }
    }
    // A table's heading row ("Hotel Details  Check In  Check Out  Rooms"): no names there.
    if (segs.length >= 3 && !/\d/.test(line.text)) return;
    for (const seg of segs) {
      if (excluded.has(`${i}:${seg.start}`)) continue;
      const { text: raw, offset } = clean(seg.text);
      // Letter-spaced letterheads ("R E W E Jürgen Maziejewski OHG") read as words.
      const text = raw.replace(/(?<![\p{L}])\p{L}(?: \p{L}(?![\p{L}])){2,}/gu, (m) => m.replace(/ /g, ''));
      const letters = (text.match(/\p{L}/gu) ?? []).length;
      if (letters < 3 || letters < text.replace(/\s/g, '').length * 0.6) continue;
      if (/[:<>]/.test(text) || phoneOrWeb.test(text) || address.test(text) || /^\d/.test(text)) continue;
      if (/\d[.,]\d{2}(?!\d)/.test(text) || currencyWord.test(text)) continue;
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
      // Sentences and fragments start in lower case; names do not (unless a legal form says so).
      if (/^\p{Ll}/u.test(name) && !legal) continue;
      let score = top;
      // The seller's legal footer: a name alone on its line just above "Siège social", "Registered office", "KvK"...
      if (footer.test(page1[i + 1]?.text ?? '') && segments(line).length === 1) score += 3.5;
      if (legal && name.split(/\s+/).length >= 2) score += 3;
      if (introduced) score += 3;
      const key = norm(name);
      if (
        key.length >= 3 &&
        domains.some((d) => key.includes(norm(d)) || (norm(d).startsWith(key) && key.length >= 3))
      )
        score += 3;
      if (key.length >= 4 && all.toLowerCase().split(name.toLowerCase()).length > 2) score += 1.5;
      if (score <= 0) continue;
      candidates.push({ line, start: seg.start + offset, end: seg.start + offset + raw.length, name, score });
    }
  });
  candidates.push(...brands(lines, f, candidates));
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

/**
 * A brand printed in capitals more than once and nowhere as a plain word ("Ihre ACME Vorteile",
 * "ACME Guthaben"): till slips whose letterhead is a logo image name the shop so.
 */
function brands(lines: TextLine[], f: FieldMaker, found: Candidate[]): Candidate[] {
  if (found.some((c) => c.score >= 3)) return [];
  const counts = new Map<string, { line: TextLine; start: number; count: number }>();
  for (const line of lines) {
    for (const m of line.text.matchAll(/(?<![\p{L}\d])\p{Lu}{3,}(?![\p{L}\d])/gu)) {
      const word = m[0];
      if (currencyWord.test(word) || stopCaps.test(word)) continue;
      const seen = counts.get(word);
      if (seen) seen.count++;
      else counts.set(word, { line, start: m.index ?? 0, count: 1 });
    }
  }
  const all = lines.map((l) => l.text).join('\n');
  const out: Candidate[] = [];
  for (const [word, at] of counts) {
    if (at.count < 2) continue;
    // A word that is also printed in lower case is vocabulary, not a brand.
    if (new RegExp(`(?<![\\p{L}])${word.charAt(0)}${word.slice(1).toLowerCase()}(?![\\p{L}])`, 'u').test(all))
      continue;
    out.push({
      line: at.line,
      start: at.start,
      end: at.start + word.length,
      name: word,
      score: 1 + at.count / 2,
    });
  }
  void f;
  return out;
}

const stopCaps =
  /^(TOTAL|SUMME|MWST|UST|TVA|VAT|TAX|IVA|BTW|BAR|EC|CASH|VISA|CARD|KARTE|PAYBACK|DATUM|DATE|UHR|STK|NR|TEL|FAX|EUR|NETTO|BRUTTO|GESAMT|BETRAG|RECHNUNG|INVOICE|RECEIPT|FACTURE|TTC|HT|QTY|ITEM|ITEMS|PRICE|AMOUNT|DESCRIPTION|SUBTOTAL|CHANGE|THANK|YOU|FOR|THE|AND|DER|DIE|DAS|UND|LES|DES|POUR|MERCI|GIROCARD|MASTERCARD|MAESTRO|AMEX|PIN|TSE|KASSE|BON|BELEG|KUNDENBELEG|HÄNDLERBELEG|ZAHLUNG|KARTENZAHLUNG|CONTACTLESS|DEBIT|CREDIT|APPROVED|AUTH)$/u;
