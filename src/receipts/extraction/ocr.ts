import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type PreparedImage, rotatePrepared } from './image-prep.ts';
import { notGrandTotal, totalLabels } from './text/labels.ts';
import { amountsIn, datesIn } from './text/values.ts';
import { runTool } from './tools.ts';

// OCR of one prepared page with the tesseract CLI, in passes:
// 1. English model, psm 4 (one column of lines of varying size, the shape of a receipt), with
//    Sauvola local thresholding (uneven light on photos, grey table fills on invoices).
// 2. When the first pass reads little, tesseract's orientation detection (psm 0): a sideways or
//    upside-down scan is turned and read again.
// 3. Unless the first reading already holds a labelled total and a date, a second reading in
//    the document's language (guessed from the first pass's words) plus English, with psm 6
//    (one uniform block: keeps boxed table cells that psm 4 drops, and a till slip's columns on
//    one line). Both readings are returned; the text heuristics weigh them.
// The language models are the Debian tesseract-ocr-{eng,deu,fra,nld,spa,ita,por} packages: the
// languages of our users. All seven at once triple OCR time, hence one guessed language per page.

export interface OcrBudget {
  timeLeft: () => number;
  maxOutputBytes: number;
}

export const OCR_LANGUAGES = ['eng', 'deu', 'fra', 'nld', 'spa', 'ita', 'por'] as const;
export type OcrLanguage = (typeof OCR_LANGUAGES)[number];

/** Words that only one of our languages prints on receipts and invoices (accents optional: the
 * English model drops them). */
const languageWords: [OcrLanguage, RegExp][] = [
  [
    'deu',
    /\b(summe|gesamt|betrag|rechnung|mwst|datum|bar|zahlung|netto|brutto|steuer|euro?\s*gesamt|kasse|ruckgeld|rückgeld|vielen|dank|und|fur|für|rechnungsbetrag|zwischensumme|gegeben)\b/giu,
  ],
  [
    'fra',
    /\b(facture|montant|tva|ttc|total\s*ht|payé|paye|merci|date|vente|espèces|especes|rendu|remise|vous|votre|pour|numéro|numero|client|articles?)\b/giu,
  ],
  [
    'nld',
    /\b(totaal|factuur|bedrag|btw|datum|subtotaal|betaald|bedankt|voor|omschrijving|aantal|prijs|uw|het|een|van|bestelling|klant)\b/giu,
  ],
  [
    'spa',
    /\b(factura|importe|iva|fecha|gracias|pagar|efectivo|cambio|cantidad|precio|cliente|el|los|las|del|por|su|compra|descripción|descripcion)\b/giu,
  ],
  [
    'ita',
    /\b(fattura|importo|iva|data|grazie|pagamento|contanti|resto|quantità|quantita|prezzo|cliente|il|della|del|per|totale|scontrino|descrizione)\b/giu,
  ],
  [
    'por',
    /\b(fatura|factura|valor|iva|data|obrigado|obrigada|pagamento|dinheiro|troco|quantidade|preço|preco|cliente|da|do|dos|para|não|nao|descrição|descricao)\b/giu,
  ],
];

/** The language with the most of its own words, when it clearly beats the others. */
export function guessLanguage(text: string): OcrLanguage {
  let best: OcrLanguage = 'eng';
  let bestCount = 2;
  for (const [lang, re] of languageWords) {
    const count = new Set([...text.matchAll(re)].map((m) => m[0].toLowerCase())).size;
    if (count > bestCount) {
      best = lang;
      bestCount = count;
    }
  }
  return best;
}

/** Tokens that look like words or amounts: how much a reading holds. */
export function readability(text: string): number {
  return (text.match(/(?<![\p{L}\d])(\p{L}{3,}|\d+[.,]\d{2})(?![\p{L}\d])/gu) ?? []).length;
}

const READS_LITTLE = 25;

/** A total label with an amount on its line, and a date: what a receipt cannot do without. */
export function hasEssentials(text: string): boolean {
  const lines = text.split('\n');
  const total = lines.some(
    (line) =>
      totalLabels.some(([re]) => re.test(line)) &&
      !notGrandTotal.test(line) &&
      amountsIn(line, { ocr: true }).length > 0,
  );
  return total && lines.some((line) => datesIn(line, false).length > 0);
}

async function tesseract(file: string, args: string[], budget: OcrBudget): Promise<string> {
  const out = await runTool('tesseract', [file, 'stdout', ...args], {
    timeoutMs: budget.timeLeft(),
    maxOutputBytes: budget.maxOutputBytes,
  });
  return out.toString('utf8');
}

function read(file: string, lang: string, psm: number, budget: OcrBudget): Promise<string> {
  return tesseract(file, ['-l', lang, '--psm', String(psm), '-c', 'thresholding_method=2'], budget);
}

/** Tesseract's orientation guess: degrees to rotate clockwise, when it is confident. */
async function orientation(file: string, budget: OcrBudget): Promise<number> {
  try {
    const osd = await tesseract(file, ['--psm', '0'], budget);
    const rotate = Number(/Rotate:\s*(\d+)/.exec(osd)?.[1] ?? 0);
    const confidence = Number(/Orientation confidence:\s*([\d.]+)/.exec(osd)?.[1] ?? 0);
    return confidence >= 1.5 ? rotate : 0;
  } catch {
    // OSD refuses pages with too few characters; then there is nothing to turn.
    return 0;
  }
}

/** OCR one prepared page (written under `dir`); returns the readings, best first. */
export async function ocrPrepared(
  image: PreparedImage,
  dir: string,
  name: string,
  budget: OcrBudget,
): Promise<string[]> {
  let file = path.join(dir, `${name}.png`);
  await writeFile(file, image.png);
  let first = await read(file, 'eng', 4, budget);
  if (readability(first) < READS_LITTLE) {
    const rotate = await orientation(file, budget);
    if (rotate !== 0) {
      const turned = await rotatePrepared(image, rotate);
      file = path.join(dir, `${name}-r${rotate}.png`);
      await writeFile(file, turned.png);
      const again = await read(file, 'eng', 4, budget);
      if (readability(again) > readability(first)) first = again;
    }
  }
  // A reading with a labelled total and a date is kept alone: a second pass doubles OCR time.
  if (hasEssentials(first)) return [first];
  const lang = guessLanguage(first);
  const second = await read(file, lang === 'eng' ? 'eng' : `${lang}+eng`, 6, budget);
  return readability(second) > readability(first) * 1.2 ? [second, first] : [first, second];
}
