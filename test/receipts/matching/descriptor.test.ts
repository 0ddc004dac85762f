import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { normalizeDescriptor, normalizeMerchant } from '../../../src/receipts/matching/descriptor.ts';
import { learnAlias, merchantSimilarity } from '../../../src/receipts/matching/similarity.ts';

describe('normalizeDescriptor', () => {
  const cases: Array<[string, string]> = [
    ['SQ *BLUE BOTTLE COFFEE 415-555', 'blue bottle coffee'],
    ['SQU*SUSHI CIRCLE', 'sushi circle'],
    ['PAYPAL *SPOTIFY', 'spotify'],
    ['PP*OTTO 10304567890', 'otto'],
    ['SP * GYMSHARK', 'gymshark'],
    ['TST* TRATTORIA DA MARIO', 'trattoria da mario'],
    ['IZ *ESPRESSO HOUSE 69810', 'espresso house'],
    ['SUMUP *LE PETIT BISTRO PARIS', 'le petit bistro'],
    ['ZTL*BURGERMEISTER 0412', 'burgermeister'],
    ['CRV*STARBUCKS 1234', 'starbucks'],
    ['AMZN Mktp DE*2K4L1', 'amazon'],
    ['GOOGLE *YouTubePremium', 'youtubepremium'],
    ['APPLE.COM/BILL 866-712-7753', 'apple'],
    ['REWE MARKT GMBH 4711 BERLIN DE', 'rewe markt'],
    ['NETFLIX.COM', 'netflix'],
    ['Café Émile S.A.', 'cafe emile'],
  ];
  for (const [raw, normalized] of cases) {
    test(`${raw} -> ${normalized}`, () => assert.equal(normalizeDescriptor(raw), normalized));
  }

  test('receipt merchants lose legal forms, accents and OCR digits', () => {
    assert.equal(normalizeMerchant('Amazon EU S.à r.l.'), 'amazon');
    assert.equal(normalizeMerchant('Lidl Dienstleistung GmbH & Co. KG'), 'lidl dienstleistung');
    assert.equal(normalizeMerchant('Sp0tify AB'), 'spotify');
    assert.equal(normalizeMerchant('Bäckerei Kamps'), 'backerei kamps');
  });
});

describe('merchantSimilarity', () => {
  test('the same merchant behind prefixes, numbers and cities scores high', () => {
    assert.equal(merchantSimilarity('Blue Bottle Coffee, Inc.', 'SQ *BLUE BOTTLE COFFEE 415-555', []), 1);
    assert.equal(merchantSimilarity('Starbucks', 'CRV*STARBUCKS 1234', []), 1);
    assert.equal(merchantSimilarity('Amazon EU S.à r.l.', 'AMZN Mktp DE*2K4L1', []), 1);
  });

  test('a descriptor cut at 22 characters still matches', () => {
    assert.ok(merchantSimilarity('Blue Bottle Coffee', 'SQ *BLUE BOTTLE COF', []) > 0.95);
  });

  test('OCR typos cost a little, not everything', () => {
    const s = merchantSimilarity('Trattorla Da Mario', 'TST* TRATTORIA DA MARIO', []);
    assert.ok(s > 0.8 && s < 1, String(s));
  });

  test('different merchants score low', () => {
    assert.equal(merchantSimilarity('Starbucks', 'SQ *BLUE BOTTLE COFFEE', []), 0);
    assert.ok(merchantSimilarity('Zur Letzten Instanz', 'SQ *SUSHI CIRCLE', []) < 0.2);
  });
});

describe('learnAlias', () => {
  test('stores the normalized descriptor head and the normalized merchant', () => {
    assert.deepEqual(learnAlias('DB VERTRIEB GMBH 0342 FRANKFURT', 'Deutsche Bahn AG'), {
      pattern: 'db vertrieb',
      merchant: 'deutsche bahn',
    });
    assert.equal(learnAlias('#1234 0000', 'Deutsche Bahn'), null);
    assert.equal(learnAlias('DB VERTRIEB', ''), null);
  });

  test('a learned alias links names that share no word, also on a truncated later charge', () => {
    const alias = learnAlias('DB VERTRIEB GMBH', 'Deutsche Bahn');
    assert.ok(alias);
    // `DB` is Deutsche Bahn's initials: good evidence on its own (issue 26), the alias makes it sure.
    assert.equal(merchantSimilarity('Deutsche Bahn', 'DB VERTRIEB GM', []), 0.85);
    assert.equal(merchantSimilarity('Deutsche Bahn', 'DB VERTRIEB GM', [alias]), 1);
    assert.equal(merchantSimilarity('DEUTSCHE BAHN', 'DB VERTR', [alias]), 1);
    // Another merchant does not borrow the alias.
    assert.ok(merchantSimilarity('Lufthansa', 'DB VERTRIEB GMBH', [alias]) < 0.2);
    // The alias is about the descriptor's head, not any word in it.
    assert.equal(merchantSimilarity('Deutsche Bahn', 'SQ *KIOSK DB VERTRIEB', [alias]), 0);
  });
});
