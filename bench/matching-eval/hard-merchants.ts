// Merchants of the harder evaluation only (issue 26): descriptors that share no word with the brand
// (initials of the brand or of its legal name), an aggregator whose receipt names itself, and a
// payee whose descriptor merely contains a word starting like the aggregator's name.
// Kept out of MERCHANTS so the original evaluation set stays what it was.
import type { Merchant } from './merchants.ts';

/** Descriptors are the brand's initials plus a store number and a street or terminal. */
export const CRYPTIC_MERCHANTS: readonly Merchant[] = [
  {
    name: 'Sightglass Coffee',
    descriptors: ['SGC 7TH ST {ref}', 'SGC DIVISADERO {ref}'],
    category: 'cafe',
    currency: 'EUR',
    amount: [4, 16],
    cities: ['SAN FRANCISCO'],
  },
  {
    name: 'Din Tai Fung',
    descriptors: ['DTF GLENDALE {ref}', 'DTF SANTA ANITA {ref}'],
    category: 'restaurant',
    currency: 'EUR',
    amount: [25, 140],
    cities: ['GLENDALE'],
  },
  {
    name: 'Legal Sea Foods',
    descriptors: ['LSF LOGAN TERMINAL B', 'LSF PARK SQ {ref}'],
    category: 'restaurant',
    currency: 'EUR',
    amount: [30, 160],
    cities: ['BOSTON'],
  },
  {
    name: 'Blue Bottle Coffee',
    descriptors: ['BBC HAYES VALLEY {ref}', 'BBC MINT PLAZA {ref}'],
    category: 'cafe',
    currency: 'EUR',
    amount: [4, 14],
    cities: ['OAKLAND'],
  },
];

/** Shops paid through PayPal: the card is charged `PAYPAL *SHOP`, the receipt is PayPal's own. */
export const PAYPAL_SHOPS = ['ETSY', 'KLEINANZEIGEN', 'HUMBLEBUNDL', 'STEAMGAMES', 'BANDCAMP'];

export const PAYPAL: Merchant = {
  name: 'PayPal Europe S.à r.l. et Cie, S.C.A.',
  descriptors: ['PAYPAL *{shop}'],
  category: 'online',
  currency: 'EUR',
  amount: [8, 120],
  cities: [],
};

/** A recurring payee whose descriptor has the word `PAY`: the hard negative for a PayPal receipt. */
export const AUTOPAY: Merchant = {
  name: 'T-Mobile',
  descriptors: ['T-MOBILE*AUTO PAY', 'T-MOBILE*AUTO PAY {ref}'],
  category: 'subscription',
  currency: 'EUR',
  amount: [8, 120],
  cities: [],
};

/** App-store receipts that the store bills together as one charge. */
export const APP_STORE: Merchant = {
  name: 'Apple Distribution International Ltd.',
  descriptors: ['APPLE.COM/BILL', 'APPLE.COM/BILL {ref}'],
  category: 'online',
  currency: 'EUR',
  amount: [1, 15],
  cities: ['ITUNES.COM'],
};
