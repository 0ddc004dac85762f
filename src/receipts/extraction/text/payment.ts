import type { ExtractedFields } from '../types.ts';
import type { FieldMaker, TextLine } from './heuristics.ts';
import { cardBrands, cardLastFour, paymentWords } from './labels.ts';

// Payment identity: a card (brand and last four digits, "VISA **** 4242", "Mastercard
// ************1234", "CB se terminant par 5678"), else the words for cash, transfer or debit.

export function readPayment(lines: TextLine[], f: FieldMaker, fields: ExtractedFields): void {
  for (const line of lines) {
    const four = cardLastFour.exec(line.text);
    const brand = cardBrands.exec(line.text);
    if (four?.[1] && (brand || /card|karte|carte|\*{2,}/iu.test(line.text))) {
      const start = four.index + four[0].length - 4;
      fields.cardLastFour = f.make(line, { start, end: start + 4 }, four[1], 0.85);
      fields.paymentMethod = f.make(line, { start: 0, end: line.text.length }, 'card', 0.85);
      if (brand)
        fields.cardBrand = f.make(
          line,
          { start: brand.index, end: brand.index + brand[0].length },
          brandName(brand[0]),
          0.85,
        );
      return;
    }
  }
  for (const line of lines) {
    const brand = cardBrands.exec(line.text);
    if (brand) {
      fields.paymentMethod = f.make(
        line,
        { start: brand.index, end: brand.index + brand[0].length },
        'card',
        0.7,
      );
      fields.cardBrand = f.make(
        line,
        { start: brand.index, end: brand.index + brand[0].length },
        brandName(brand[0]),
        0.7,
      );
      return;
    }
  }
  for (const [re, method] of paymentWords) {
    for (const line of lines) {
      const m = re.exec(line.text);
      if (m) {
        fields.paymentMethod = f.make(line, { start: m.index, end: m.index + m[0].length }, method, 0.7);
        return;
      }
    }
  }
}

function brandName(raw: string): string {
  const key = raw.toLowerCase().replace(/\s+/g, '');
  const names: Record<string, string> = {
    visa: 'Visa',
    mastercard: 'Mastercard',
    maestro: 'Maestro',
    amex: 'American Express',
    americanexpress: 'American Express',
    girocard: 'girocard',
    cartebancaire: 'CB',
    discover: 'Discover',
    diners: 'Diners Club',
  };
  return names[key] ?? raw;
}
