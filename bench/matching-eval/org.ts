// One generated organization: its members' cards, and purchases booked as a transaction and,
// usually, a receipt read from a document.
import type {
  MerchantAlias,
  ReceiptCandidate,
  TransactionCandidate,
} from '../../src/receipts/matching/types.ts';
import { type Category, EUR_RATES, MERCHANTS, type Merchant } from './merchants.ts';
import { descriptorFor, orderNumber, receiptMerchantName } from './noise.ts';
import { addDays, type Random, seededRandom } from './random.ts';

export type CaseKind =
  | 'plain'
  | 'tip'
  | 'fx'
  | 'preauth'
  | 'refund'
  | 'subscription'
  | 'daily'
  | 'colleague'
  | 'alias'
  | 'distractor'
  // The harder set (bench/matching-eval/hard-scenarios.ts, issue 26).
  | 'tip-high'
  | 'split'
  | 'combined'
  | 'fx-no-original'
  | 'cryptic'
  | 'aggregator'
  | 'period'
  | 'same-amount'
  | 'late'
  | 'refund-credit';

export interface LabelledReceipt {
  receipt: ReceiptCandidate;
  /** The id of the transaction this receipt documents, or null when there is none. */
  truth: string | null;
  kind: CaseKind;
  /**
   * Every transaction that is part of the truth when one document was paid in several charges
   * (a split): suggesting any of them counts, the set is what a person confirms.
   */
  parts?: string[];
  /** False when the generator made the reader get a field wrong or miss it (date, total, card, merchant). */
  readRight?: boolean;
}

export interface Organization {
  receipts: LabelledReceipt[];
  transactions: TransactionCandidate[];
  aliases: MerchantAlias[];
}

export interface Card {
  accountId: string;
  lastFour: string;
}

export interface Purchase {
  card: Card;
  merchant: Merchant;
  date: string;
  /** Receipt total in the merchant's currency, minor units. */
  total: number;
  kind: CaseKind;
  receiptChance: number;
  tipRatio?: number;
  bookingLag?: number;
  documentType?: ReceiptCandidate['documentType'];
  /** Never report the original amount of a foreign charge (some banks do not). */
  noOriginal?: boolean;
  /** The descriptor as the bank prints it, instead of one drawn from the merchant's shapes. */
  descriptor?: string;
  /** The date the receipt prints when it is not the purchase date (a service period's end). */
  receiptDate?: string;
  /** The service period a subscription invoice prints (the purchase date is its start). */
  servicePeriod?: { start: string; end: string };
}

export const START = '2026-03-02';
export const DAYS = 150;

function bookingLag(rnd: Random): number {
  return rnd.weighted([
    [0, 28],
    [1, 30],
    [2, 16],
    [3, 10],
    [4, 6],
    [5, 4],
    [rnd.int(6, 10), 6],
  ]);
}

export class OrgBuilder {
  readonly receipts: LabelledReceipt[] = [];
  readonly transactions: TransactionCandidate[] = [];
  readonly cards: Card[] = [];
  private seq = 0;
  /** Receipts carry the confidences the reader gives PDFs and photos (the harder set only). */
  readerConfidences = false;
  /** Whether the last receiptFor read every field right (the generator's own noise aside). */
  lastReadRight = true;
  /**
   * How the reader fares on a printed service period: drawn from a stream of its own, so the
   * rest of the set is the same draw as before periods were read.
   */
  private readonly periodRnd: Random;

  constructor(
    readonly rnd: Random,
    readonly name: string,
  ) {
    this.periodRnd = seededRandom(
      [...name].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619), 2166136261),
    );
    const members = rnd.int(2, 4);
    for (let m = 0; m < members; m++) {
      for (let c = rnd.int(1, 3); c > 0; c--) {
        this.cards.push({
          accountId: `${name}-acct-${m}-${c}`,
          lastFour: String(rnd.int(0, 9999)).padStart(4, '0'),
        });
      }
    }
  }

  id(prefix: string): string {
    this.seq++;
    return `${this.name}-${prefix}-${this.seq}`;
  }

  labelled(): number {
    return this.receipts.filter((r) => r.truth !== null).length;
  }

  /** Books the transaction of a purchase and, with `receiptChance`, its receipt. */
  add(p: Purchase): TransactionCandidate {
    const { rnd } = this;
    const order = p.merchant.category === 'online' && rnd.chance(0.8) ? orderNumber(rnd) : null;
    const withTip = Math.round(p.total * (1 + (p.tipRatio ?? 0)));
    const foreign = p.merchant.currency !== 'EUR';
    const rate = EUR_RATES[p.merchant.currency] * (1 + (rnd.next() - 0.5) * 0.02);
    const fee = foreign && rnd.chance(0.5) ? 1.0175 : 1;
    const refund = p.documentType === 'refund';
    const charged = foreign ? Math.round(withTip * rate * fee) : withTip;
    const tx: TransactionCandidate = {
      id: this.id('tx'),
      accountId: p.card.accountId,
      cardLastFour: rnd.chance(0.93) ? p.card.lastFour : null,
      bookedDate: addDays(p.date, p.bookingLag ?? bookingLag(rnd)),
      amountMinor: BigInt(refund ? charged : -charged),
      currency: 'EUR',
      originalAmountMinor:
        foreign && p.noOriginal !== true && rnd.chance(0.8) ? BigInt(refund ? withTip : -withTip) : null,
      originalCurrency: null,
      description:
        p.descriptor ?? descriptorFor(rnd, p.merchant, order !== null && rnd.chance(0.4) ? order : null),
      merchantClean: null,
      status: 'booked',
    };
    if (tx.originalAmountMinor !== null) tx.originalCurrency = p.merchant.currency;
    this.transactions.push(tx);
    if (rnd.chance(p.receiptChance)) {
      const receipt = this.receiptFor(p, order);
      this.receipts.push({ receipt, truth: tx.id, kind: p.kind, readRight: this.lastReadRight });
    }
    return tx;
  }

  /**
   * A service period as the reader reads it (src/receipts/extraction/text/period.ts): an
   * e-invoice's always (BG-14); a PDF's under its label 90 % of the time, a photo's 75 %
   * (OCR garbles the label or a date), each at the reader's confidence. E-invoices and half the
   * others print an issue date at the period's end; the rest are dated by the start the reader
   * takes (decision 430). A period missed leaves the invoice dated by its end, as before.
   */
  private readPeriod(
    p: Purchase,
    source: 'einvoice' | 'pdf' | 'photo',
    confidence: ReceiptCandidate['confidence'],
  ): { read: ReceiptCandidate['servicePeriod']; printed: string | null } {
    const period = p.servicePeriod;
    if (period === undefined) return { read: null, printed: null };
    const r = this.periodRnd;
    // An e-invoice always carries its IssueDate (BT-2).
    const issuedAtEnd = r.chance(0.5) || source === 'einvoice';
    const found = source === 'einvoice' || r.chance(source === 'pdf' ? 0.9 : 0.75);
    if (!found) return { read: null, printed: period.end };
    // Dated by the period's start: no surer than the period (0.9 labelled, 0.81 through OCR), capped at 0.85.
    if (!issuedAtEnd) confidence.date = source === 'pdf' ? 0.85 : 0.81;
    return { read: period, printed: issuedAtEnd ? period.end : period.start };
  }

  receiptFor(p: Purchase, order: string | null): ReceiptCandidate {
    const { rnd } = this;
    const confidence = { merchant: 0.95, date: 0.97, total: 0.98, currency: 0.97, cardLastFour: 0.95 };
    let source: 'einvoice' | 'pdf' | 'photo' = 'pdf';
    if (this.readerConfidences) {
      // The reader's own levels (src/receipts/extraction/text): a text PDF reads card digits at 0.85
      // and a labelled total at 0.9; a photo multiplies by 0.85. E-invoices keep the high levels.
      source = rnd.weighted([
        ['einvoice', 15],
        ['pdf', 50],
        ['photo', 35],
      ] as const);
      const f = source === 'photo' ? 0.85 : 1;
      if (source !== 'einvoice')
        Object.assign(confidence, { total: 0.9 * f, cardLastFour: 0.85 * f, merchant: 0.8 * f });
    }
    const period = this.readPeriod(p, source, confidence);
    let readRight = true;
    let date: string | null = rnd.chance(0.05) ? null : (period.printed ?? p.receiptDate ?? p.date);
    if (date !== null && rnd.chance(0.02)) {
      date = addDays(date, rnd.pick([-1, 1]) * rnd.int(10, 40));
      confidence.date = 0.55;
      readRight = false;
    }
    if (date === null) readRight = false;
    let total: number | null = rnd.chance(0.02) ? null : p.total;
    if (total !== null && rnd.chance(0.02)) {
      total += rnd.pick([-1, 1]) * 10 ** rnd.int(0, 2) * rnd.int(1, 8);
      confidence.total = 0.6;
      readRight = false;
    }
    if (total === null) readRight = false;
    let card: string | null = rnd.chance(p.kind === 'colleague' ? 0.8 : 0.6) ? p.card.lastFour : null;
    if (card !== null && rnd.chance(0.01)) {
      card = String(rnd.int(0, 9999)).padStart(4, '0');
      confidence.cardLastFour = 0.6;
      readRight = false;
    }
    const merchant = receiptMerchantName(rnd, p.merchant);
    if (merchant === null) readRight = false;
    this.lastReadRight = readRight;
    return {
      id: this.id('rc'),
      merchant,
      date,
      totalMinor: total === null ? null : BigInt(total),
      currency: rnd.chance(0.05) ? null : p.merchant.currency,
      cardLastFour: card,
      paymentMethod:
        card === null ? rnd.pick([null, 'apple pay', 'visa']) : rnd.pick(['visa', 'mastercard', 'debit']),
      orderNumber: order,
      servicePeriod: period.read,
      documentType: p.documentType ?? (p.merchant.category === 'subscription' ? 'invoice' : 'receipt'),
      confidence,
    };
  }
}

export function merchantsOf(filter: (m: Merchant) => boolean): Merchant[] {
  return MERCHANTS.filter(filter);
}

export const cents = (rnd: Random, [min, max]: readonly [number, number]): number =>
  rnd.int(min * 100, max * 100);
export const byCategory = (c: Category) => merchantsOf((m) => m.category === c);
