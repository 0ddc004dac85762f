// The merchant catalog of the generated evaluation set: the name a receipt prints, the shapes of
// descriptor banks print for it (processor prefixes included), and what purchases look like.
// Names are common public brands; descriptors imitate real statement lines, not copied ones.

export type Category =
  | 'cafe'
  | 'restaurant'
  | 'retail'
  | 'online'
  | 'subscription'
  | 'transport'
  | 'fuel'
  | 'hotel';

export interface Merchant {
  /** As printed on the receipt. */
  name: string;
  /** Descriptor shapes; `{ref}` becomes a random reference code, `{order}` the order number. */
  descriptors: readonly string[];
  category: Category;
  currency: 'EUR' | 'USD' | 'GBP' | 'CHF';
  /** Typical total in major units. */
  amount: readonly [number, number];
  /** Cities the bank may append. */
  cities: readonly string[];
  /** The descriptor shares no word with the receipt's name: only a learned alias links them. */
  needsAlias?: boolean;
}

const DE = ['BERLIN', 'HAMBURG', 'MUENCHEN', 'KOELN', 'FRANKFURT'];

export const MERCHANTS: readonly Merchant[] = [
  {
    name: 'Blue Bottle Coffee',
    descriptors: ['SQ *BLUE BOTTLE COFFEE'],
    category: 'cafe',
    currency: 'USD',
    amount: [4, 14],
    cities: ['SAN FRANCISCO', 'OAKLAND'],
  },
  {
    name: 'Starbucks',
    descriptors: ['CRV*STARBUCKS {ref}', 'STARBUCKS STORE {ref}'],
    category: 'cafe',
    currency: 'EUR',
    amount: [3, 12],
    cities: DE,
  },
  {
    name: 'Balzac Coffee',
    descriptors: ['SUMUP *BALZAC COFFEE', 'BALZAC COFFEE'],
    category: 'cafe',
    currency: 'EUR',
    amount: [3, 11],
    cities: DE,
  },
  {
    name: 'Espresso House',
    descriptors: ['IZ *ESPRESSO HOUSE {ref}'],
    category: 'cafe',
    currency: 'EUR',
    amount: [3, 12],
    cities: DE,
  },
  {
    name: 'Bäckerei Kamps',
    descriptors: ['KAMPS BACKSTUBE {ref}', 'SUMUP *BAECKEREI KAMPS'],
    category: 'cafe',
    currency: 'EUR',
    amount: [2, 9],
    cities: DE,
  },
  {
    name: 'Pret A Manger',
    descriptors: ['PRET A MANGER {ref}'],
    category: 'cafe',
    currency: 'GBP',
    amount: [3, 12],
    cities: ['LONDON'],
  },
  {
    name: 'Trattoria Da Mario',
    descriptors: ['TST* TRATTORIA DA MARIO', 'TRATTORIA DA MARIO'],
    category: 'restaurant',
    currency: 'EUR',
    amount: [25, 140],
    cities: DE,
  },
  {
    name: 'Zur Letzten Instanz',
    descriptors: ['ZUR LETZTEN INSTANZ'],
    category: 'restaurant',
    currency: 'EUR',
    amount: [30, 160],
    cities: ['BERLIN'],
  },
  {
    name: 'Sushi Circle',
    descriptors: ['SQ *SUSHI CIRCLE', 'SQU*SUSHI CIRCLE'],
    category: 'restaurant',
    currency: 'EUR',
    amount: [15, 90],
    cities: DE,
  },
  {
    name: 'Le Petit Bistro SARL',
    descriptors: ['SUMUP *LE PETIT BISTRO', 'LE PETIT BISTRO'],
    category: 'restaurant',
    currency: 'EUR',
    amount: [20, 120],
    cities: ['PARIS'],
  },
  {
    name: 'Burgermeister',
    descriptors: ['ZTL*BURGERMEISTER {ref}'],
    category: 'restaurant',
    currency: 'EUR',
    amount: [9, 45],
    cities: ['BERLIN'],
  },
  {
    name: "Nando's",
    descriptors: ['NANDOS {ref}'],
    category: 'restaurant',
    currency: 'GBP',
    amount: [12, 70],
    cities: ['LONDON'],
  },
  {
    name: 'The Smith Restaurant',
    descriptors: ['TST* THE SMITH {ref}'],
    category: 'restaurant',
    currency: 'USD',
    amount: [40, 220],
    cities: ['NEW YORK'],
  },
  {
    name: 'REWE Markt GmbH',
    descriptors: ['REWE SAGT DANKE {ref}', 'REWE MARKT GMBH {ref}'],
    category: 'retail',
    currency: 'EUR',
    amount: [5, 90],
    cities: DE,
  },
  {
    name: 'Lidl Dienstleistung GmbH & Co. KG',
    descriptors: ['LIDL SAGT DANKE', 'LIDL DIENSTL {ref}'],
    category: 'retail',
    currency: 'EUR',
    amount: [4, 70],
    cities: DE,
  },
  {
    name: 'dm-drogerie markt',
    descriptors: ['DM FIL.{ref} H:65', 'DM DROGERIEMARKT {ref}'],
    category: 'retail',
    currency: 'EUR',
    amount: [3, 60],
    cities: DE,
  },
  {
    name: 'MediaMarkt',
    descriptors: ['MEDIA MARKT {ref}', 'MEDIAMARKT SATURN {ref}'],
    category: 'retail',
    currency: 'EUR',
    amount: [15, 900],
    cities: DE,
  },
  {
    name: 'IKEA Deutschland GmbH & Co. KG',
    descriptors: ['IKEA {ref}', 'IKEA DEUTSCHLAND'],
    category: 'retail',
    currency: 'EUR',
    amount: [10, 600],
    cities: DE,
  },
  {
    name: 'Decathlon',
    descriptors: ['DECATHLON {ref}'],
    category: 'retail',
    currency: 'EUR',
    amount: [8, 250],
    cities: DE,
  },
  {
    name: 'Staples',
    descriptors: ['STAPLES {ref}'],
    category: 'retail',
    currency: 'USD',
    amount: [5, 150],
    cities: ['NEW YORK', 'SEATTLE'],
  },
  {
    name: 'Amazon EU S.à r.l.',
    descriptors: ['AMZN Mktp DE*{ref}', 'AMAZON.DE*{ref}', 'Amazon Digital DE*{ref}'],
    category: 'online',
    currency: 'EUR',
    amount: [6, 400],
    cities: [],
  },
  {
    name: 'Zalando SE',
    descriptors: ['ZALANDO SE {order}', 'PAYPAL *ZALANDO', 'ZALANDO.DE {order}'],
    category: 'online',
    currency: 'EUR',
    amount: [20, 300],
    cities: ['BERLIN'],
  },
  {
    name: 'Etsy Ireland UC',
    descriptors: ['ETSY.COM - {ref}', 'PAYPAL *ETSY {order}'],
    category: 'online',
    currency: 'USD',
    amount: [8, 120],
    cities: [],
  },
  {
    name: 'Otto GmbH & Co KG',
    descriptors: ['OTTO GMBH {order}', 'PP*OTTO {order}'],
    category: 'online',
    currency: 'EUR',
    amount: [15, 500],
    cities: ['HAMBURG'],
  },
  {
    name: 'Spotify AB',
    descriptors: ['PAYPAL *SPOTIFY', 'SPOTIFY {ref}', 'Spotify P{ref}'],
    category: 'subscription',
    currency: 'EUR',
    amount: [11, 18],
    cities: ['STOCKHOLM'],
  },
  {
    name: 'Netflix International B.V.',
    descriptors: ['NETFLIX.COM', 'NETFLIX.COM {ref}'],
    category: 'subscription',
    currency: 'EUR',
    amount: [8, 18],
    cities: ['AMSTERDAM'],
  },
  {
    name: 'Apple Distribution International Ltd.',
    descriptors: ['APPLE.COM/BILL', 'APPLE.COM/BILL {ref}'],
    category: 'subscription',
    currency: 'EUR',
    amount: [1, 15],
    cities: ['CORK'],
  },
  {
    name: 'Adobe Systems Software Ireland Ltd',
    descriptors: ['ADOBE *CREATIVE CLOUD', 'ADOBE *ADOBE {ref}'],
    category: 'subscription',
    currency: 'EUR',
    amount: [24, 80],
    cities: ['DUBLIN'],
  },
  {
    name: 'GitHub, Inc.',
    descriptors: ['GITHUB, INC.', 'GITHUB {ref}'],
    category: 'subscription',
    currency: 'USD',
    amount: [4, 84],
    cities: ['SAN FRANCISCO'],
  },
  {
    name: 'Notion Labs Inc',
    descriptors: ['NOTION LABS, INC.', 'NOTION.SO'],
    category: 'subscription',
    currency: 'USD',
    amount: [8, 40],
    cities: ['SAN FRANCISCO'],
  },
  {
    name: 'Figma Inc',
    descriptors: ['FIGMA MONTHLY RENEWAL', 'FIGMA {ref}'],
    category: 'subscription',
    currency: 'USD',
    amount: [12, 75],
    cities: ['SAN FRANCISCO'],
  },
  {
    name: 'OpenAI, LLC',
    descriptors: ['OPENAI *CHATGPT SUBSCR', 'OPENAI'],
    category: 'subscription',
    currency: 'USD',
    amount: [20, 60],
    cities: ['SAN FRANCISCO'],
  },
  {
    name: 'Slack Technologies Ltd',
    descriptors: ['SLACK T{ref}', 'SLACK TECHNOLOGIES'],
    category: 'subscription',
    currency: 'EUR',
    amount: [7, 60],
    cities: ['DUBLIN'],
  },
  {
    name: 'Google Workspace',
    descriptors: ['GOOGLE *GSUITE_{ref}', 'GOOGLE*GSUITE {ref}'],
    category: 'subscription',
    currency: 'EUR',
    amount: [6, 70],
    cities: ['DUBLIN'],
    needsAlias: true,
  },
  {
    name: 'Meta Platforms Ireland Ltd',
    descriptors: ['FACEBK *{ref}'],
    category: 'subscription',
    currency: 'EUR',
    amount: [20, 400],
    cities: ['DUBLIN'],
    needsAlias: true,
  },
  {
    name: 'Deutsche Bahn',
    descriptors: ['DB VERTRIEB GMBH', 'DB FERNVERKEHR {ref}'],
    category: 'transport',
    currency: 'EUR',
    amount: [19, 180],
    cities: ['FRANKFURT'],
    needsAlias: true,
  },
  {
    name: 'Uber',
    descriptors: ['UBER *TRIP', 'UBR* PENDING.UBER.COM', 'UBER   *TRIP {ref}'],
    category: 'transport',
    currency: 'EUR',
    amount: [8, 60],
    cities: DE,
  },
  {
    name: 'Bolt Operations OÜ',
    descriptors: ['BOLT.EU/O/{ref}'],
    category: 'transport',
    currency: 'EUR',
    amount: [6, 40],
    cities: ['TALLINN'],
  },
  {
    name: 'Deutsche Lufthansa AG',
    descriptors: ['LUFTHANSA {ref}', 'DLH {ref}'],
    category: 'transport',
    currency: 'EUR',
    amount: [90, 900],
    cities: ['FRANKFURT'],
  },
  {
    name: 'Berliner Verkehrsbetriebe',
    descriptors: ['BVG APP {ref}'],
    category: 'transport',
    currency: 'EUR',
    amount: [3, 12],
    cities: ['BERLIN'],
    needsAlias: true,
  },
  {
    name: 'Aral Tankstelle',
    descriptors: ['ARAL STATION {ref}', 'ARAL AG {ref}'],
    category: 'fuel',
    currency: 'EUR',
    amount: [30, 110],
    cities: DE,
  },
  {
    name: 'Shell Deutschland',
    descriptors: ['SHELL {ref}', 'SHELL DEUTSCHLAND {ref}'],
    category: 'fuel',
    currency: 'EUR',
    amount: [30, 110],
    cities: DE,
  },
  {
    name: 'Motel One',
    descriptors: ['MOTEL ONE {ref}', 'MOTEL ONE GMBH'],
    category: 'hotel',
    currency: 'EUR',
    amount: [80, 400],
    cities: DE,
  },
  {
    name: 'Hilton London Metropole',
    descriptors: ['HILTON HOTELS {ref}', 'HILTON LONDON METROPOLE'],
    category: 'hotel',
    currency: 'GBP',
    amount: [150, 700],
    cities: ['LONDON'],
  },
  {
    name: 'Marriott Zürich',
    descriptors: ['MARRIOTT ZURICH {ref}'],
    category: 'hotel',
    currency: 'CHF',
    amount: [200, 800],
    cities: ['ZURICH'],
  },
];

/** Units of EUR per unit of the currency: the generator's "true" mid rate, moved a little per day. */
export const EUR_RATES: Readonly<Record<Merchant['currency'], number>> = {
  EUR: 1,
  USD: 0.92,
  GBP: 1.17,
  CHF: 1.04,
};
