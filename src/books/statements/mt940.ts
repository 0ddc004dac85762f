import { type Info86, parse61, parse86 } from './mt940-fields.ts';
import type { StatementItem } from './types.ts';

interface Field {
  tag: string;
  lineNumber: number;
  lines: string[];
}

interface Message {
  account: string | null;
  currency: string | null;
  closed: boolean;
  pending61: Field | null;
  pending86: Field | null;
}

const TAG = /^:(\d{2}[A-Z]?):/;

/**
 * MT940, with or without SWIFT blocks `{1:..}{2:..}{4: ... -}`. Lines before a message's first tag
 * (ABN AMRO's `ABNANL2A` / `940` header) are skipped. A line `-` ends a message only after its
 * closing balance: ING writes `-` as text inside `:86:` too.
 */
export async function* parseMt940(text: string, accountCurrency: string): AsyncGenerator<StatementItem> {
  let msg: Message = fresh();
  let field: Field | null = null;
  let lineNumber = 0;
  const out: StatementItem[] = [];

  const finishField = (): void => {
    if (field === null) return;
    const f = field;
    field = null;
    const value = (f.lines[0] ?? '').slice(f.tag.length + 2).trim();
    if (f.tag === '61') {
      flush61(msg, accountCurrency, out);
      msg.pending61 = f;
    } else if (f.tag === '86') {
      if (msg.pending61 !== null && msg.pending86 === null) msg.pending86 = f;
    } else if (f.tag === '25') {
      // ING appends the currency to the account: `NL77INGB0574908765EUR`.
      msg.account = value.replace(/(\d)[A-Z]{3}$/, '$1') || null;
    } else if (f.tag.startsWith('60')) {
      msg.currency = /^[CD]\d{6}([A-Z]{3})/.exec(value)?.[1] ?? msg.currency;
    } else if (f.tag.startsWith('62')) {
      flush61(msg, accountCurrency, out);
      msg.closed = true;
    }
  };
  const endMessage = (): void => {
    finishField();
    flush61(msg, accountCurrency, out);
    msg = fresh();
  };

  const re = /\r\n|\n|\r/g;
  let start = 0;
  for (;;) {
    const m = re.exec(text);
    let line = text.slice(start, m === null ? text.length : m.index);
    lineNumber++;
    if (line.startsWith('{')) {
      const block4 = line.indexOf('{4:');
      line = block4 < 0 ? '' : line.slice(block4 + 3);
    }
    if (line.startsWith('-}') || (line.trim() === '-' && msg.closed)) endMessage();
    else if (TAG.test(line)) {
      finishField();
      field = { tag: TAG.exec(line)?.[1] ?? '', lineNumber, lines: [line] };
    } else if (field !== null) field.lines.push(line);
    yield* out.splice(0);
    if (m === null) break;
    start = m.index + m[0].length;
  }
  endMessage();
  yield* out.splice(0);
}

function fresh(): Message {
  return { account: null, currency: null, closed: false, pending61: null, pending86: null };
}

function flush61(msg: Message, accountCurrency: string, out: StatementItem[]): void {
  const f = msg.pending61;
  if (f === null) return;
  const info = msg.pending86;
  msg.pending61 = null;
  msg.pending86 = null;
  const currency = msg.currency ?? accountCurrency;
  const lines = [...f.lines];
  lines[0] = (lines[0] ?? '').slice(4);
  const parsed = parse61(lines, currency);
  if (typeof parsed === 'string') {
    out.push({ kind: 'rejected', lineNumber: f.lineNumber, reason: parsed });
    return;
  }
  const details: Info86 =
    info === null
      ? { description: parsed.supplementary, counterpartyName: null, counterpartyIban: null }
      : parse86(info.lines, 4);
  out.push({
    kind: 'line',
    line: {
      lineNumber: f.lineNumber,
      accountRef: msg.account,
      bookedDate: parsed.bookedDate,
      valueDate: parsed.valueDate,
      amountMinor: parsed.amountMinor,
      currency,
      originalAmountMinor: null,
      originalCurrency: null,
      description: details.description || parsed.supplementary,
      counterpartyName: details.counterpartyName,
      counterpartyIban: details.counterpartyIban,
      // Only the bank's own reference (after `//`): the customer reference is often the
      // counterparty's IBAN (SNS, ASN) and repeats across lines.
      bankReference: parsed.bankRef,
      pending: false,
      cardLastFour: null,
      feesMinor: null,
      ...(parsed.reversal ? { reversal: true } : {}),
    },
  });
}
