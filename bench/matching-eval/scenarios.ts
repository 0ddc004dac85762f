// The kinds of purchase the generator mixes, each with the hard negatives it brings along.
import type { Merchant } from './merchants.ts';
import { byCategory, type Card, cents, DAYS, merchantsOf, type OrgBuilder, START } from './org.ts';
import { addDays, type Random } from './random.ts';

const someDay = (rnd: Random, margin = 0): string => addDays(START, rnd.int(0, DAYS - 1 - margin));
const anyCard = (org: OrgBuilder): Card => org.rnd.pick(org.cards);
const everyday = (m: Merchant) => m.category !== 'subscription' && m.needsAlias !== true;

function plain(org: OrgBuilder): void {
  const merchant = org.rnd.pick(merchantsOf((m) => everyday(m) && m.currency === 'EUR'));
  org.add({
    card: anyCard(org),
    merchant,
    date: someDay(org.rnd),
    total: cents(org.rnd, merchant.amount),
    kind: 'plain',
    receiptChance: 0.85,
  });
}

function tip(org: OrgBuilder): void {
  const merchant = org.rnd.pick(byCategory('restaurant').filter((m) => m.currency === 'EUR'));
  const tipRatio = org.rnd.pick([0.05, 0.08, 0.1, 0.12, 0.15, 0.18, 0.2]);
  org.add({
    card: anyCard(org),
    merchant,
    date: someDay(org.rnd),
    total: cents(org.rnd, merchant.amount),
    kind: 'tip',
    receiptChance: 0.9,
    tipRatio,
  });
}

function fx(org: OrgBuilder): void {
  const merchant = org.rnd.pick(merchantsOf((m) => m.currency !== 'EUR'));
  const restaurant = merchant.category === 'restaurant' && org.rnd.chance(0.5);
  org.add({
    card: anyCard(org),
    merchant,
    date: someDay(org.rnd),
    total: cents(org.rnd, merchant.amount),
    kind: 'fx',
    receiptChance: 0.9,
    ...(restaurant ? { tipRatio: 0.15 } : {}),
  });
}

/** Fuel and hotels block a round amount first; the pending block stays among open transactions. */
function preauth(org: OrgBuilder): void {
  const { rnd } = org;
  const merchant = rnd.pick([
    ...byCategory('fuel'),
    ...byCategory('hotel').filter((m) => m.currency === 'EUR'),
  ]);
  const card = anyCard(org);
  const date = someDay(rnd);
  const total = cents(rnd, merchant.amount);
  const blocked =
    merchant.category === 'fuel' ? rnd.pick([10000, 15000, 20000]) : Math.ceil((total * 1.15) / 5000) * 5000;
  const final = org.add({
    card,
    merchant,
    date,
    total,
    kind: 'preauth',
    receiptChance: 0.95,
    bookingLag: rnd.int(1, 4),
  });
  org.transactions.push({
    ...final,
    id: org.id('tx'),
    bookedDate: date,
    amountMinor: BigInt(-blocked),
    status: 'pending',
  });
}

/** A purchase and, later, its refund (full or partial): the same merchant in both directions. */
function refund(org: OrgBuilder): void {
  const { rnd } = org;
  const merchant = rnd.pick(byCategory('online').filter((m) => m.currency === 'EUR'));
  const card = anyCard(org);
  const date = someDay(rnd, 30);
  const total = cents(rnd, merchant.amount);
  org.add({ card, merchant, date, total, kind: 'plain', receiptChance: 0.9 });
  const back = rnd.chance(0.6) ? total : Math.round(total * rnd.pick([0.3, 0.5, 0.7]));
  org.add({
    card,
    merchant,
    date: addDays(date, rnd.int(5, 25)),
    total: back,
    kind: 'refund',
    receiptChance: 1,
    documentType: 'refund',
  });
}

/** Monthly charges of one amount to one card: each month's invoice is a hard negative for the others. */
function subscription(org: OrgBuilder, alias: boolean): void {
  const { rnd } = org;
  const merchant = rnd.pick(
    merchantsOf((m) =>
      alias ? m.needsAlias === true : m.category === 'subscription' && m.needsAlias !== true,
    ),
  );
  const card = anyCard(org);
  const total = cents(rnd, merchant.amount);
  const first = someDay(rnd, 120);
  for (let month = 0; month < 5; month++) {
    org.add({
      card,
      merchant,
      date: addDays(first, month * 30),
      total,
      kind: alias ? 'alias' : 'subscription',
      receiptChance: 0.75,
      bookingLag: rnd.int(0, 2),
    });
  }
}

/** The same coffee on consecutive days: same card, merchant and amount, one day apart. */
function daily(org: OrgBuilder): void {
  const { rnd } = org;
  const merchant = rnd.pick(byCategory('cafe').filter((m) => m.currency === 'EUR'));
  const card = anyCard(org);
  const total = cents(rnd, merchant.amount);
  const first = someDay(rnd, 10);
  for (let day = rnd.int(3, 6); day > 0; day--) {
    org.add({ card, merchant, date: addDays(first, day), total, kind: 'daily', receiptChance: 0.8 });
  }
}

/** Two colleagues pay the same restaurant the same day, often the same split amount. */
function colleagues(org: OrgBuilder): void {
  const { rnd } = org;
  if (org.cards.length < 2) {
    plain(org);
    return;
  }
  const merchant = rnd.pick(byCategory('restaurant').filter((m) => m.currency === 'EUR'));
  const date = someDay(rnd);
  const total = cents(rnd, merchant.amount);
  const [a, b] = [rnd.pick(org.cards), rnd.pick(org.cards)];
  const second = a === b ? org.cards.find((c) => c !== a) : b;
  if (second === undefined) {
    plain(org);
    return;
  }
  org.add({ card: a, merchant, date, total, kind: 'colleague', receiptChance: 0.9 });
  org.add({
    card: second,
    merchant,
    date,
    total: rnd.chance(0.5) ? total : total + rnd.int(-300, 300),
    kind: 'colleague',
    receiptChance: 0.9,
  });
}

export function addScenario(org: OrgBuilder): void {
  const kind = org.rnd.weighted<() => void>([
    [() => plain(org), 36],
    [() => tip(org), 10],
    [() => fx(org), 12],
    [() => preauth(org), 6],
    [() => refund(org), 5],
    [() => subscription(org, false), 4],
    [() => subscription(org, true), 2],
    [() => daily(org), 3],
    [() => colleagues(org), 5],
  ]);
  kind();
}

/** Receipts with no transaction (cash, a personal card) and transactions with no receipt. */
export function addDistractors(org: OrgBuilder, unfiledRatio: number): void {
  const { rnd } = org;
  const labelled = org.labelled();
  for (let i = Math.round(labelled * 0.12); i > 0; i--) {
    const merchant = rnd.pick(merchantsOf((m) => m.category !== 'subscription'));
    const personal = { accountId: 'personal', lastFour: String(rnd.int(0, 9999)).padStart(4, '0') };
    const purchase = {
      card: personal,
      merchant,
      date: someDay(rnd),
      total: cents(rnd, merchant.amount),
      kind: 'distractor',
      receiptChance: 0,
    } as const;
    const receipt = org.receiptFor(purchase, null);
    if (rnd.chance(0.5)) Object.assign(receipt, { paymentMethod: 'cash', cardLastFour: null });
    org.receipts.push({ receipt, truth: null, kind: 'distractor', readRight: org.lastReadRight });
  }
  for (let i = Math.round(labelled * unfiledRatio); i > 0; i--) {
    const merchant = rnd.pick(merchantsOf(everyday));
    org.add({
      card: anyCard(org),
      merchant,
      date: someDay(rnd),
      total: cents(rnd, merchant.amount),
      kind: 'plain',
      receiptChance: 0,
    });
  }
}
