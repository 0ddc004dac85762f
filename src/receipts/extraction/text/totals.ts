import type { ExtractedFields, Field } from '../types.ts';
import { type FieldMaker, type TextLine, valueAfter } from './heuristics.ts';
import { changeLine, labels, notGrandTotal, paymentLine, totalLabels } from './labels.ts';
import { type AmountOptions, amountsIn } from './values.ts';

// The grand total, chosen by consistency rather than by the first or largest "total":
// - candidates are the amounts on total lines, weighted by how surely the label names the
//   amount paid (3: "Grand total", "Rechnungsbetrag", "Totaal te betalen"; 2: "Summe", "Totaal",
//   "Payé", "Valor"; 1: a bare "Total"); subtotal, net, tax, count and savings lines are not;
// - "amount due" lines are candidates when not zero: "Balance due 0.00" on a paid receipt says
//   nothing about the total;
// - a candidate gains when the document confirms it: net + tax (+ tip), the line items' sum, a
//   payment line of the same amount, or tendered minus change;
// - a candidate equal to another plus the cash back or change printed ("Gesamt 156,27" on a
//   card slip after "Betrag 56,27" and "Cashback 100,00") loses.
// The confidence follows the evidence: a label alone is not enough for a ready receipt.

interface Candidate {
  value: bigint;
  weight: number;
  line: TextLine;
  start: number;
  end: number;
}

export function totalOf(
  lines: TextLine[],
  f: FieldMaker,
  fields: ExtractedFields,
  options: AmountOptions,
): { total?: Field<bigint>; amountDue?: Field<bigint> } {
  const candidates: Candidate[] = [];
  const payments: bigint[] = [];
  const change: bigint[] = [];
  let amountDue: Field<bigint> | undefined;
  const totalOptions = { ...options, groupedWhole: true };

  lines.forEach((line, i) => {
    const text = line.text;
    if (changeLine.test(text)) {
      const a = amountsIn(text, options).at(-1);
      if (a && a.value > 0n) change.push(a.value);
      return;
    }
    const due = labels.amountDue.exec(text);
    if (due && !notGrandTotal.test(text)) {
      const hit = valueAfter(lines, i, due, (t) => amountsIn(t, totalOptions).at(-1), f.kind);
      if (hit) {
        amountDue ??= f.make(hit.line, hit.found, hit.found.value, hit.sameLine ? 0.85 : 0.7);
        if (hit.found.value > 0n)
          candidates.push({
            value: hit.found.value,
            weight: 2,
            line: hit.line,
            start: hit.found.start,
            end: hit.found.end,
          });
        return;
      }
    }
    let label: { m: RegExpExecArray; weight: number } | undefined;
    for (const [re, weight] of totalLabels) {
      const m = re.exec(text);
      if (m) {
        label = { m, weight };
        break;
      }
    }
    if (label && !notGrandTotal.test(text.slice(0, label.m.index + label.m[0].length + 12))) {
      const hit = valueAfter(lines, i, label.m, (t) => amountsIn(t, totalOptions).at(-1), f.kind);
      // A value below the label only for a label standing alone ("Totaal" over its box) or a
      // bare "Total" ending its line, never for a table heading ("Descripción Precio Importe").
      const alone = text.replace(label.m[0], '').replace(/[\s:.*=|-]/g, '').length === 0;
      const atEnd = /^[\s:.*=|-]*$/.test(text.slice(label.m.index + label.m[0].length));
      if (hit && !hit.sameLine && !alone && label.weight === 2) return;
      if (hit && !hit.sameLine && !alone && label.weight === 1 && !atEnd) return;
      if (hit && hit.found.value !== 0n) {
        candidates.push({
          value: hit.found.value,
          weight: label.weight - (hit.sameLine ? 0 : 0.5),
          line: hit.line,
          start: hit.found.start,
          end: hit.found.end,
        });
      }
    }
    if (paymentLine.test(text) && !notGrandTotal.test(text)) {
      const a = amountsIn(text, options).at(-1);
      if (a && a.value > 0n) payments.push(a.value);
    }
  });
  if (candidates.length === 0) return { amountDue };

  const net = fields.netMinor?.value;
  const tax = fields.taxMinor?.value;
  const tip = fields.tipMinor?.value ?? 0n;
  const items = fields.lineItems.map((l) => l.value.amountMinor ?? 0n);
  const itemSum = items.length >= 1 ? items.reduce((a, b) => a + b, 0n) : undefined;
  const values = [...new Set(candidates.map((c) => c.value))];

  const scored = values.map((value) => {
    const own = candidates.filter((c) => c.value === value);
    const weight = Math.max(...own.map((c) => c.weight));
    const confirmations: string[] = [];
    if (
      net !== undefined &&
      tax !== undefined &&
      tax !== 0n &&
      (net + tax === value || net + tax + tip === value)
    )
      confirmations.push('net+tax');
    if (itemSum !== undefined && (itemSum === value || itemSum + tip === value)) confirmations.push('items');
    if (payments.includes(value)) confirmations.push('payment');
    if (change.some((c) => payments.includes(value + c))) confirmations.push('tendered-change');
    const inflated = change.some((c) => values.includes(value - c));
    // Restaurant slips print the bill, then the tip, then the amount charged: the one with the tip.
    if (tip > 0n && values.includes(value - tip)) confirmations.push('with-tip');
    const score = weight + 1.5 * confirmations.length + (own.length > 1 ? 0.5 : 0) - (inflated ? 4 : 0);
    return { value, own, weight, confirmations, score, inflated };
  });
  scored.sort((a, b) => b.score - a.score || (a.value < b.value ? 1 : -1));
  const best = scored[0];
  const at = best?.own.find((c) => c.weight === best.weight);
  if (!best || !at) return { amountDue };
  // Two different amounts under equally strong labels with nothing to tell them apart: a guess.
  const rival = scored[1];
  const contested = rival !== undefined && rival.score >= best.score - 0.5;
  let confidence = best.weight >= 3 ? 0.8 : best.weight >= 2 ? 0.72 : 0.62;
  if (best.confirmations.length > 0) confidence = Math.max(confidence + 0.15, 0.9);
  if (best.confirmations.length > 1 || best.own.length > 1) confidence += 0.05;
  if (contested) confidence = Math.min(confidence, 0.55);
  const total = f.make(at.line, { start: at.start, end: at.end }, best.value, confidence);
  return { total, amountDue };
}
