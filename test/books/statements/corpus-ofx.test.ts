import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { StatementLine } from '../../../src/books/statements/index.ts';
import { itWithSample } from '../../support/samples.ts';
import { parseSample, pick, sum } from './helpers.ts';

const KEYS: Array<keyof StatementLine> = [
  'lineNumber',
  'accountRef',
  'bookedDate',
  'amountMinor',
  'currency',
  'description',
  'counterpartyName',
  'bankReference',
];

describe('OFX corpus', () => {
  itWithSample(
    'statements/ofx1-actual-html-entities.qfx',
    'Actual html-vals.qfx: entities decoded, also the double-escaped &amp;lt;',
    async () => {
      const { detection, lines, rejected } = await parseSample('ofx1-actual-html-entities.qfx');
      assert.equal(detection.format, 'ofx');
      assert.deepEqual(rejected, []);
      assert.equal(lines.length, 2);
      assert.deepEqual(pick(lines[0], KEYS), {
        lineNumber: 15,
        accountRef: '00000 00-00000',
        bookedDate: '2023-05-09',
        amountMinor: -100n,
        currency: 'CAD',
        description:
          '000000000000000 / PREAUTHORIZED DEBIT;B.C. HYDRO & POWER AUTHORITY;Electronic Funds Transfer',
        counterpartyName: '000000000000000',
        bankReference: '23129130032333396279270000',
      });
      assert.deepEqual(pick(lines[1], KEYS), {
        lineNumber: 16,
        accountRef: '00000 00-00000',
        bookedDate: '2023-03-01',
        amountMinor: -100n,
        currency: 'CAD',
        description:
          'TPAY <DEFTPYMT> / PREAUTHORIZED DEBIT;LUXMORE REALTY PPTY MGMT;Electronic Funds Transfer',
        counterpartyName: 'TPAY <DEFTPYMT>',
        bankReference: '23060061032549554596530000',
      });
    },
  );

  itWithSample('statements/ofx1-actual-utf8.qfx', 'Actual utf-8.qfx: UTF-8 names', async () => {
    const { lines, rejected } = await parseSample('ofx1-actual-utf8.qfx');
    assert.deepEqual(rejected, []);
    assert.equal(lines.length, 1);
    assert.deepEqual(pick(lines[0], KEYS), {
      lineNumber: 43,
      accountRef: '999-12345-0055666-EOP',
      bookedDate: '2022-10-19',
      amountMinor: -2000n,
      currency: 'CAD',
      description: 'Café Métro €uro / Paiement 5€ — débit',
      counterpartyName: 'Café Métro €uro',
      bankReference: 'cafeUtf8xx',
    });
  });

  itWithSample(
    'statements/ofx1-ofxparse-bank-medium.ofx',
    'ofxparse bank_medium: SGML on few lines, the memo holds the name',
    async () => {
      const { lines, rejected } = await parseSample('ofx1-ofxparse-bank-medium.ofx');
      assert.deepEqual(rejected, []);
      assert.equal(lines.length, 3);
      assert.deepEqual(pick(lines[0], KEYS), {
        lineNumber: 15,
        accountRef: '12300 000012345678',
        bookedDate: '2009-04-01',
        amountMinor: -660n,
        currency: 'CAD',
        description: "POS MERCHANDISE;MCDONALD'S #112",
        counterpartyName: "MCDONALD'S #112",
        bankReference: '0000123456782009040100001',
      });
      assert.deepEqual(
        pick(lines[2], ['lineNumber', 'bookedDate', 'amountMinor', 'description', 'bankReference']),
        {
          lineNumber: 17,
          bookedDate: '2009-04-03',
          amountMinor: -2200n,
          description: "POS MERCHANDISE;CONNIE'S HAIR D",
          bankReference: '0000123456782009040300005',
        },
      );
      assert.equal(sum(lines), -660n - 31667n - 2200n);
    },
  );

  itWithSample(
    'statements/ofx1-ofxparse-checking.ofx',
    'ofxparse checking: indented SGML, a one-cent credit',
    async () => {
      const { lines, rejected } = await parseSample('ofx1-ofxparse-checking.ofx');
      assert.deepEqual(rejected, []);
      assert.equal(lines.length, 3);
      assert.deepEqual(pick(lines[0], KEYS), {
        lineNumber: 46,
        accountRef: '1452687~7',
        bookedDate: '2011-03-31',
        amountMinor: 1n,
        currency: 'USD',
        description:
          'DIVIDEND EARNED FOR PERIOD OF 03/01/2011 THROUGH 03/31/2011 ANNUAL PERCENTAGE YIELD EARNED IS 0.05%',
        counterpartyName: 'DIVIDEND EARNED FOR PERIOD OF 03',
        bankReference: '0000486',
      });
      assert.deepEqual(
        pick(lines[2], ['lineNumber', 'bookedDate', 'amountMinor', 'description', 'bankReference']),
        {
          lineNumber: 62,
          bookedDate: '2011-04-07',
          amountMinor: -2500n,
          description: 'RETURNED CHECK FEE, CHECK # 319 FOR $45.33 ON 04/07/11',
          bankReference: '0000488',
        },
      );
    },
  );

  itWithSample(
    'statements/ofx2-oca-multi-tranlist.ofx',
    'OCA: four BANKTRANLISTs in one statement and an empty card statement',
    async () => {
      const { lines, rejected } = await parseSample('ofx2-oca-multi-tranlist.ofx');
      assert.deepEqual(rejected, []);
      assert.equal(lines.length, 4);
      assert.deepEqual(
        lines.map((l) =>
          pick(l, [
            'lineNumber',
            'accountRef',
            'bookedDate',
            'amountMinor',
            'currency',
            'description',
            'bankReference',
          ]),
        ),
        [
          {
            lineNumber: 31,
            accountRef: '123456',
            bookedDate: '2013-08-24',
            amountMinor: -8000n,
            currency: 'USD',
            description: 'Agrolait',
            bankReference: '219378',
          },
          {
            lineNumber: 42,
            accountRef: '123456',
            bookedDate: '2013-08-24',
            amountMinor: -9000n,
            currency: 'USD',
            description: 'China Export',
            bankReference: '219379',
          },
          {
            lineNumber: 53,
            accountRef: '123456',
            bookedDate: '2013-08-24',
            amountMinor: -10000n,
            currency: 'USD',
            description: 'Axelor Scuba',
            bankReference: '219380',
          },
          {
            lineNumber: 64,
            accountRef: '123456',
            bookedDate: '2013-08-24',
            amountMinor: -9000n,
            currency: 'USD',
            description: 'China Scuba',
            bankReference: '219381',
          },
        ],
      );
    },
  );

  itWithSample(
    'statements/ofx2-ofxparse-anzcc-creditcard.ofx',
    'ofxparse anzcc: a credit card statement (CCSTMTRS) with SGML leaves under an XML header',
    async () => {
      const { lines, rejected } = await parseSample('ofx2-ofxparse-anzcc-creditcard.ofx');
      assert.deepEqual(rejected, []);
      assert.equal(lines.length, 1);
      assert.deepEqual(pick(lines[0], [...KEYS, 'cardLastFour']), {
        lineNumber: 29,
        accountRef: '1234123412341234',
        bookedDate: '2017-05-08',
        amountMinor: -550n,
        currency: 'AUD',
        description: 'SOME MEMO',
        counterpartyName: null,
        bankReference: '201705080001',
        cardLastFour: '1234',
      });
    },
  );

  itWithSample(
    'statements/ofx2-ofxparse-suncorp.ofx',
    'ofxparse suncorp: OFX 2.00 XML with CDATA and CRLF',
    async () => {
      const { lines, rejected } = await parseSample('ofx2-ofxparse-suncorp.ofx');
      assert.deepEqual(rejected, []);
      assert.equal(lines.length, 1);
      assert.deepEqual(pick(lines[0], KEYS), {
        lineNumber: 35,
        accountRef: '123456789',
        bookedDate: '2013-12-15',
        amountMinor: -1685n,
        currency: 'AUD',
        description: 'EFTPOS WDL HANDYWAY ALDI STORE GEELONG WEST VICAU',
        counterpartyName: 'EFTPOS WDL HANDYWAY ALDI STORE',
        bankReference: '1',
      });
    },
  );
});
