import type { Field, LineItem } from '../types.ts';
import type { FieldMaker, TextLine } from './heuristics.ts';
import { labels, notGrandTotal, totalLabels } from './labels.ts';
import { type AmountOptions, amountsIn } from './values.ts';

// Line items: lines between the items header (or the first priced line) and the first total,
// each "description  [qty [x]]  [unit price]  amount". Quantity is a bare number column or "2 x".

const stop = new RegExp(
  `${labels.net.source}|${totalLabels.map(([re]) => re.source).join('|')}|${labels.taxTotal.source}|${labels.tip.source}|${labels.amountDue.source}`,
  'iu',
);
const skip = new RegExp(
  `${labels.documentNumber.source}|${labels.date.source}|${labels.orderNumber.source}|${labels.taxId.source}|${labels.tax.source}`,
  'iu',
);

export function lineItemsOf(
  lines: TextLine[],
  f: FieldMaker,
  options: AmountOptions = {},
): Field<LineItem>[] {
  const items: Field<LineItem>[] = [];
  const header = lines.findIndex(
    (l) => labels.itemsHeader.test(l.text) && amountsIn(l.text, options).length === 0,
  );
  const from = header === -1 ? 0 : header + 1;
  for (let i = from; i < lines.length; i++) {
    const line = lines[i];
    if (!line) continue;
    if (stop.test(line.text) || notGrandTotal.test(line.text)) {
      if (items.length > 0 || header !== -1) break;
      continue;
    }
    if (skip.test(line.text)) continue;
    const amounts = amountsIn(line.text, options);
    const amount = amounts.at(-1);
    if (
      !amount ||
      line.text
        .slice(amount.end)
        .trim()
        .replace(/^[A-Z€$£]{1,3}$/u, '') !== ''
    )
      continue;
    const head = line.text.slice(0, amounts[0]?.start ?? amount.start);
    const m =
      /^\s*(?:(\d+(?:[.,]\d+)?)\s*[x×]\s+)?(\p{L}[^\n]*?)(?:\s{2,}(\d+(?:[.,]\d+)?)\s*(?:[x×]|[A-Za-z]{0,3}))?\s*$/u.exec(
        head,
      );
    if (!m?.[2]) continue;
    const unit = amounts.length > 1 ? amounts.at(-2) : undefined;
    const quantity = m[1] ?? m[3] ?? null;
    items.push(
      f.make(
        line,
        { start: 0, end: amount.end },
        {
          description: m[2].trim(),
          quantity: quantity === null ? null : quantity.replace(',', '.'),
          unitPrice: unit ? decimalOfMinor(unit.value) : null,
          amountMinor: amount.value,
          taxRate: null,
        },
        0.7,
      ),
    );
  }
  return items;
}

function decimalOfMinor(minor: bigint): string {
  const sign = minor < 0n ? '-' : '';
  const v = minor < 0n ? -minor : minor;
  const cents = v % 100n;
  return cents === 0n
    ? `${sign}${v / 100n}`
    : `${sign}${v / 100n}.${String(cents).padStart(2, '0').replace(/0$/, '')}`;
}
