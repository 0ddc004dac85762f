// The evidence components of one receipt/transaction pair. Each returns a value in 0..1 or null
// (no evidence: a field is missing on one side) and a short reason for the explanation.
import { minorUnitRate, rateForCharge } from './reference-rates.ts';
import type { MatchSettings, ReceiptCandidate, TransactionCandidate } from './types.ts';

export interface Component {
  value: number | null;
  reason: string | null;
}

export interface AmountComponent extends Component {
  /** Same currency and equal to the minor unit. */
  exact: boolean;
}

const abs = (n: bigint): bigint => (n < 0n ? -n : n);

/** A refund receipt expects money in; every other document expects money out. */
export function expectsMoneyIn(receipt: ReceiptCandidate): boolean {
  return receipt.documentType === 'refund';
}

function ratio(a: bigint, b: bigint): number {
  return b === 0n ? Number.POSITIVE_INFINITY : Number(a) / Number(b);
}

/** Linear decay from `top` at 0 to `bottom` at `limit`. */
function decay(x: number, limit: number, top: number, bottom: number): number {
  return top - (top - bottom) * Math.min(1, x / limit);
}

/**
 * Amount evidence. Equality is on bigint minor units; the tolerance bands compare ratios, which is
 * fine because they only grade how close two amounts are, never decide that they are equal.
 */
export function amountComponent(
  receipt: ReceiptCandidate,
  tx: TransactionCandidate,
  settings: MatchSettings,
): AmountComponent {
  const none = (reason: string | null, value: number | null = null): AmountComponent => ({
    value,
    reason,
    exact: false,
  });
  if (receipt.totalMinor === null) return none(null);
  if (tx.amountMinor === 0n || tx.amountMinor > 0n !== expectsMoneyIn(receipt)) {
    return none(expectsMoneyIn(receipt) ? 'refund receipt, but money went out' : 'money came in', 0);
  }
  const total = receipt.totalMinor;
  const charged = abs(tx.amountMinor);
  const sameCurrency = receipt.currency === null || receipt.currency === tx.currency;
  if (sameCurrency) {
    if (charged === total) return { value: 1, reason: 'amount equal', exact: true };
    // A receipt whose currency was not read may be in the currency the card was used in.
    if (
      receipt.currency === null &&
      tx.originalAmountMinor !== null &&
      abs(tx.originalAmountMinor) === total
    ) {
      return none(`original ${tx.originalCurrency ?? ''} amount equal`, 0.9);
    }
    const diff = ratio(charged - total, total);
    if (Math.abs(diff) <= settings.amountTolerance) {
      return none(
        `amount within ${(diff * 100).toFixed(1)} %`,
        decay(Math.abs(diff), settings.amountTolerance, 0.8, 0.55),
      );
    }
    // Restaurants: the card is charged the bill plus the tip written on the slip.
    if (!expectsMoneyIn(receipt) && diff > 0 && diff <= settings.maxTipRatio) {
      return none(
        `charge ${(diff * 100).toFixed(0)} % above total (tip)`,
        decay(diff, settings.maxTipRatio, 0.7, 0.45),
      );
    }
    return none('amount differs', 0);
  }
  if (
    tx.originalCurrency !== null &&
    tx.originalAmountMinor !== null &&
    tx.originalCurrency === receipt.currency
  ) {
    const original = abs(tx.originalAmountMinor);
    if (original === total) return none(`original ${tx.originalCurrency} amount equal`, 0.95);
    const diff = ratio(original - total, total);
    if (Math.abs(diff) <= settings.amountTolerance) return none('original amount close', 0.7);
    if (!expectsMoneyIn(receipt) && diff > 0 && diff <= settings.maxTipRatio) {
      return none('original amount above total (tip)', decay(diff, settings.maxTipRatio, 0.65, 0.4));
    }
    return none('original amount differs', 0);
  }
  const configured =
    receipt.currency === null ? undefined : settings.approximateRates[`${receipt.currency}/${tx.currency}`];
  if (configured === undefined || receipt.currency === null)
    return referenceFx(receipt, tx, settings, charged, total);
  const diff = ratio(charged, total) / minorUnitRate(configured, receipt.currency, tx.currency) - 1;
  if (Math.abs(diff) <= settings.fxTolerance) {
    return none('amount close after approximate FX', decay(Math.abs(diff), settings.fxTolerance, 0.75, 0.5));
  }
  if (!expectsMoneyIn(receipt) && diff > 0 && diff <= settings.maxTipRatio + settings.fxTolerance) {
    return none('amount above total after FX (tip)', 0.4);
  }
  return none('amount differs after approximate FX', 0);
}

/**
 * No configured rate: the rate of the charge's date (a dated reference table, else the
 * organization's implied rate, else the bundled table; decision 491). A dated rate of the day is
 * close, so its band is narrower and its values higher; implied and bundled rates may be months
 * away, so they get the wider band and lower values. No rate anywhere -> a flat 0.3.
 */
function referenceFx(
  receipt: ReceiptCandidate,
  tx: TransactionCandidate,
  settings: MatchSettings,
  charged: bigint,
  total: bigint,
): AmountComponent {
  const none = (reason: string, value: number): AmountComponent => ({ value, reason, exact: false });
  const sources = {
    dated: settings.datedRates,
    datedMaxAgeDays: settings.datedRateMaxAgeDays,
    implied: settings.impliedRates,
    impliedMaxAgeDays: settings.impliedRateMaxAgeDays,
    bundled: settings.referenceRates,
  };
  const found =
    receipt.currency === null
      ? undefined
      : rateForCharge(sources, receipt.currency, tx.currency, tx.bookedDate);
  if (found === undefined || receipt.currency === null) return none('other currency, no rate', 0.3);
  const diff = ratio(charged, total) / minorUnitRate(found.rate, receipt.currency, tx.currency) - 1;
  const dated = found.kind === 'dated';
  const band = dated ? settings.datedFxTolerance : settings.referenceFxTolerance;
  const [top, bottom, tip] = dated ? [0.75, 0.5, 0.4] : [0.65, 0.45, 0.35];
  if (Math.abs(diff) <= band) {
    return none(
      `amount within ${(diff * 100).toFixed(1)} % after FX (${found.label})`,
      decay(Math.abs(diff), band, top, bottom),
    );
  }
  if (!expectsMoneyIn(receipt) && diff > 0 && diff <= settings.maxTipRatio + band) {
    return none(`amount above total after FX (tip, ${found.label})`, tip);
  }
  return none(`amount differs after FX (${found.label})`, 0);
}

const DAY_MS = 86_400_000;

export function daysBetween(fromIsoDate: string, toIsoDate: string): number {
  return Math.round((Date.parse(`${toIsoDate}T00:00:00Z`) - Date.parse(`${fromIsoDate}T00:00:00Z`)) / DAY_MS);
}

/** Date evidence of a booking `lag` days after the receipt date: 0..typical days is normal, then it decays to max. */
function byLag(lag: number, settings: MatchSettings): Component {
  if (lag >= 0 && lag <= settings.typicalBookingDays) {
    return { value: 1 - 0.03 * lag, reason: lag === 0 ? 'booked the same day' : `booked ${lag} d after` };
  }
  if (lag > settings.typicalBookingDays && lag <= settings.maxBookingDays) {
    const over = lag - settings.typicalBookingDays;
    const span = settings.maxBookingDays - settings.typicalBookingDays;
    return { value: decay(over, span, 0.75, 0.2), reason: `booked ${lag} d after (late)` };
  }
  if (lag < 0 && -lag <= settings.earlyBookingDays) {
    return { value: 0.7 - 0.1 * -lag, reason: `booked ${-lag} d before the receipt date` };
  }
  return { value: 0, reason: `booked ${lag} d from the receipt date` };
}

const when = (lag: number): string =>
  lag === 0
    ? 'booked the day it began'
    : lag > 0
      ? `booked ${lag} d after it began`
      : `booked ${-lag} d before it began`;

/**
 * A service period at least this long (a month, or a quarter, a year) is a subscription's: charged
 * at its start, and the same charge recurs at its end. Shorter spans (a hotel stay, a car rental)
 * are charged at their end or any day, and keep the receipt date rule.
 */
export const SUBSCRIPTION_PERIOD_DAYS = 27;

/** What a period charge near the period's end (the next period's, most often) is still worth. */
const NEXT_PERIOD_VALUE = 0.3;

/**
 * The period the date component reads the charge from: a subscription's period, unless the
 * document was issued after it ended (usage billed in arrears, charged on the issue date).
 */
export function subscriptionPeriod(
  receipt: ReceiptCandidate,
  settings: MatchSettings,
): { start: string; end: string } | null {
  const period = receipt.servicePeriod ?? null;
  if (period === null || daysBetween(period.start, period.end) + 1 < SUBSCRIPTION_PERIOD_DAYS) return null;
  if (receipt.date !== null && daysBetween(period.end, receipt.date) > settings.earlyBookingDays) return null;
  return period;
}

/** The date a receipt's charge is expected near: its period's start for a subscription, else its date. */
export function expectedChargeDate(receipt: ReceiptCandidate, settings: MatchSettings): string | null {
  return subscriptionPeriod(receipt, settings)?.start ?? receipt.date;
}

/**
 * Date evidence: booking 0..typical days after the receipt date is normal, then it decays to max.
 * A subscription invoice (a service period of a month or more, decision 431) is charged at the
 * start of its period (or on an issue date before it or in its first half): the date printed at
 * its end, and the next period's charge there, are weak evidence.
 */
export function dateComponent(
  receipt: ReceiptCandidate,
  tx: TransactionCandidate,
  settings: MatchSettings,
): Component {
  const period = subscriptionPeriod(receipt, settings);
  if (period !== null) {
    const lag = daysBetween(period.start, tx.bookedDate);
    let best = byLag(lag, settings);
    best = {
      value: best.value,
      reason:
        best.value === 0
          ? `booked ${lag} d from the start of the service period`
          : `charged at the start of the service period (${when(lag)})`,
    };
    // Invoiced ahead of the period or in its first half: charged on the issue date, or at the start.
    // An issue date late in the period (at its end) is where the next period's charge falls.
    const into = receipt.date === null ? null : daysBetween(period.start, receipt.date);
    if (receipt.date !== null && into !== null && into * 2 <= daysBetween(period.start, period.end)) {
      const issued = byLag(daysBetween(receipt.date, tx.bookedDate), settings);
      if ((issued.value ?? 0) > (best.value ?? 0)) {
        const where = into < 0 ? `${-into} d ahead of` : `${into} d into`;
        best = { value: issued.value, reason: `invoiced ${where} its service period; ${issued.reason}` };
      }
    }
    if (best.value === 0) {
      const afterEnd = daysBetween(period.end, tx.bookedDate);
      if (afterEnd >= -settings.earlyBookingDays && afterEnd <= settings.maxBookingDays) {
        return {
          value: NEXT_PERIOD_VALUE,
          reason: `booked at the end of the service period ${period.start} to ${period.end} (the next period's charge?)`,
        };
      }
    }
    return best;
  }
  if (receipt.date === null) return { value: null, reason: null };
  return byLag(daysBetween(receipt.date, tx.bookedDate), settings);
}

export function currencyComponent(receipt: ReceiptCandidate, tx: TransactionCandidate): Component {
  if (receipt.currency === null) return { value: null, reason: null };
  if (receipt.currency === tx.currency) return { value: 1, reason: null };
  if (receipt.currency === tx.originalCurrency) {
    return { value: 0.9, reason: `paid in ${receipt.currency}, booked in ${tx.currency}` };
  }
  return { value: 0.1, reason: `currency ${receipt.currency} vs ${tx.currency}` };
}

export function cardComponent(receipt: ReceiptCandidate, tx: TransactionCandidate): Component {
  if (receipt.cardLastFour === null || tx.cardLastFour === null) return { value: null, reason: null };
  if (receipt.cardLastFour === tx.cardLastFour) return { value: 1, reason: `card ••${tx.cardLastFour}` };
  return { value: 0, reason: `card ••${receipt.cardLastFour} on receipt, ••${tx.cardLastFour} charged` };
}

function compact(text: string): string {
  return text.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/** The receipt's order number printed in the descriptor is near-proof; its absence proves nothing. */
export function orderComponent(receipt: ReceiptCandidate, tx: TransactionCandidate): Component {
  if (receipt.orderNumber === null) return { value: null, reason: null };
  const order = compact(receipt.orderNumber);
  if (order.length < 5) return { value: null, reason: null };
  if (compact(tx.description).includes(order))
    return { value: 1, reason: `order ${receipt.orderNumber} in descriptor` };
  return { value: null, reason: null };
}
