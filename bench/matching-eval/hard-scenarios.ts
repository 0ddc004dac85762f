// The harder cases of issue 26, mixed into the harder evaluation set on top of the usual ones:
// tips up to 30 %, a bill split over two cards, an order charged in two parts, app-store receipts
// billed as one charge, foreign charges with no original amount, descriptors that are the brand's
// initials (with the same merchant's charge weeks away as the hard negative), PayPal receipts
// against `PAYPAL *SHOP` charges (with `T-MOBILE*AUTO PAY` around), subscription invoices dated by
// their service period's end, several charges of one amount on one day, charges booked long after
// the receipt, and return slips whose purchase is still open.
import { APP_STORE, AUTOPAY, CRYPTIC_MERCHANTS, PAYPAL, PAYPAL_SHOPS } from './hard-merchants.ts';
import type { Merchant } from './merchants.ts';
import { byCategory, type Card, cents, DAYS, merchantsOf, type OrgBuilder, START } from './org.ts';
import { addDays, type Random } from './random.ts';

const someDay = (rnd: Random, margin = 0): string => addDays(START, rnd.int(0, DAYS - 1 - margin));
const anyCard = (org: OrgBuilder): Card => org.rnd.pick(org.cards);
const eurRestaurants = () => byCategory('restaurant').filter((m) => m.currency === 'EUR');

function tipHigh(org: OrgBuilder): void {
  const merchant = org.rnd.pick(eurRestaurants());
  org.add({
    card: anyCard(org),
    merchant,
    date: someDay(org.rnd),
    total: cents(org.rnd, merchant.amount),
    kind: 'tip-high',
    receiptChance: 1,
    tipRatio: org.rnd.pick([0.22, 0.25, 0.27, 0.28, 0.3]),
  });
}

/** One receipt, two charges: a restaurant bill split over two cards, or an order shipped in two parts. */
function split(org: OrgBuilder): void {
  const { rnd } = org;
  const restaurant = rnd.chance(0.5);
  const merchant = restaurant
    ? rnd.pick(eurRestaurants())
    : rnd.pick(byCategory('online').filter((m) => m.currency === 'EUR'));
  const date = someDay(rnd);
  const total = cents(rnd, [Math.max(20, merchant.amount[0]), Math.max(60, merchant.amount[1])]);
  const first = Math.round(total * rnd.pick([0.3, 0.4, 0.5, 0.6]));
  const cardA = anyCard(org);
  const cardB = restaurant ? (org.cards.find((c) => c !== cardA) ?? cardA) : cardA;
  const a = org.add({ card: cardA, merchant, date, total: first, kind: 'split', receiptChance: 0 });
  const b = org.add({
    card: cardB,
    merchant,
    date,
    total: total - first,
    kind: 'split',
    receiptChance: 0,
    ...(restaurant ? {} : { bookingLag: rnd.int(3, 9) }),
  });
  const receipt = org.receiptFor(
    { card: cardA, merchant, date, total, kind: 'split', receiptChance: 1 },
    null,
  );
  org.receipts.push({
    receipt,
    truth: a.id,
    parts: [a.id, b.id],
    kind: 'split',
    readRight: org.lastReadRight,
  });
}

/** Two or three app-store receipts billed as one charge of their sum. */
function combined(org: OrgBuilder): void {
  const { rnd } = org;
  const card = anyCard(org);
  const date = someDay(rnd);
  const totals = Array.from({ length: rnd.int(2, 3) }, () => cents(rnd, APP_STORE.amount));
  const sum = totals.reduce((s, t) => s + t, 0);
  const tx = org.add({ card, merchant: APP_STORE, date, total: sum, kind: 'combined', receiptChance: 0 });
  for (const total of totals) {
    const receipt = org.receiptFor(
      { card, merchant: APP_STORE, date, total, kind: 'combined', receiptChance: 1 },
      null,
    );
    org.receipts.push({ receipt, truth: tx.id, kind: 'combined', readRight: org.lastReadRight });
  }
}

function fxNoOriginal(org: OrgBuilder): void {
  const merchant = org.rnd.pick(merchantsOf((m) => m.currency !== 'EUR' && m.category !== 'hotel'));
  org.add({
    card: anyCard(org),
    merchant,
    date: someDay(org.rnd),
    total: cents(org.rnd, merchant.amount),
    kind: 'fx-no-original',
    receiptChance: 1,
    noOriginal: true,
  });
}

/** Initials for a descriptor, and the same merchant's charge (no receipt) 2-5 weeks away. */
function cryptic(org: OrgBuilder): void {
  const { rnd } = org;
  const merchant = rnd.pick(CRYPTIC_MERCHANTS);
  const card = anyCard(org);
  const date = someDay(rnd, 40);
  org.add({ card, merchant, date, total: cents(rnd, merchant.amount), kind: 'cryptic', receiptChance: 1 });
  const total = cents(rnd, merchant.amount);
  org.add({ card, merchant, date: addDays(date, rnd.int(14, 35)), total, kind: 'cryptic', receiptChance: 0 });
}

/** A PayPal receipt for a `PAYPAL *SHOP` charge, with an auto-pay charge of the same size nearby. */
function aggregator(org: OrgBuilder): void {
  const { rnd } = org;
  const card = anyCard(org);
  const date = someDay(rnd, 5);
  const total = cents(rnd, PAYPAL.amount);
  const shop = rnd.pick(PAYPAL_SHOPS);
  const descriptor = `PAYPAL *${shop}`.slice(0, 22);
  org.add({ card, merchant: PAYPAL, date, total, kind: 'aggregator', receiptChance: 1, descriptor });
  const near = Math.round(total * (1 + (rnd.next() - 0.5) * 0.04));
  org.add({
    card,
    merchant: AUTOPAY,
    date: addDays(date, rnd.int(0, 3)),
    total: near,
    kind: 'aggregator',
    receiptChance: 0,
  });
}

/**
 * Monthly invoices that print the service period (and, half of them, an issue date at its end):
 * charged at the period's start, with next month's charge of the same amount at its end.
 */
function period(org: OrgBuilder): void {
  const { rnd } = org;
  const merchant = rnd.pick(merchantsOf((m) => m.category === 'subscription' && m.needsAlias !== true));
  const card = anyCard(org);
  const total = cents(rnd, merchant.amount);
  const first = someDay(rnd, 120);
  for (let month = 0; month < 4; month++) {
    const date = addDays(first, month * 30);
    org.add({
      card,
      merchant,
      date,
      total,
      kind: 'period',
      receiptChance: 0.8,
      bookingLag: rnd.int(0, 1),
      receiptDate: addDays(date, 29),
      servicePeriod: { start: date, end: addDays(date, 29) },
    });
  }
}

/** Several charges of one amount on one day (tickets, parking) at different merchants and cards. */
function sameAmount(org: OrgBuilder): void {
  const { rnd } = org;
  const date = someDay(rnd);
  const total = rnd.pick([250, 300, 320, 500, 1000, 1500, 2000]);
  const merchants = merchantsOf(
    (m) => m.currency === 'EUR' && m.needsAlias !== true && m.category !== 'subscription',
  );
  const withReceipt = rnd.int(0, 2);
  for (let i = 0; i < 3; i++) {
    const merchant: Merchant = rnd.pick(merchants);
    org.add({
      card: anyCard(org),
      merchant,
      date,
      total,
      kind: 'same-amount',
      receiptChance: i === withReceipt ? 1 : 0,
      bookingLag: rnd.int(0, 2),
    });
  }
}

/** Booked 6-12 days after the receipt: the receipt came first and waited. */
function late(org: OrgBuilder): void {
  const merchant = org.rnd.pick(
    merchantsOf((m) => m.currency === 'EUR' && m.needsAlias !== true && m.category !== 'subscription'),
  );
  org.add({
    card: anyCard(org),
    merchant,
    date: someDay(org.rnd),
    total: cents(org.rnd, merchant.amount),
    kind: 'late',
    receiptChance: 1,
    bookingLag: org.rnd.int(6, 12),
  });
}

/** A full return: the slip belongs to the credit, the purchase (same amount, no receipt) is open. */
function refundCredit(org: OrgBuilder): void {
  const { rnd } = org;
  const merchant = rnd.pick(byCategory('online').filter((m) => m.currency === 'EUR'));
  const card = anyCard(org);
  const date = someDay(rnd, 30);
  const total = cents(rnd, merchant.amount);
  org.add({ card, merchant, date, total, kind: 'refund-credit', receiptChance: 0 });
  org.add({
    card,
    merchant,
    date: addDays(date, rnd.int(3, 20)),
    total,
    kind: 'refund-credit',
    receiptChance: 1,
    documentType: 'refund',
  });
}

/** One of the harder cases, chosen with these weights next to the usual scenarios. */
export function addHardScenario(org: OrgBuilder): void {
  org.rnd.weighted<() => void>([
    [() => tipHigh(org), 6],
    [() => split(org), 5],
    [() => combined(org), 3],
    [() => fxNoOriginal(org), 6],
    [() => cryptic(org), 6],
    [() => aggregator(org), 5],
    [() => period(org), 3],
    [() => sameAmount(org), 4],
    [() => late(org), 4],
    [() => refundCredit(org), 4],
  ])();
}
