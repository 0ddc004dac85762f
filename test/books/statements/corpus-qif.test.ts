import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { StatementLine } from '../../../src/books/statements/index.ts';
import { itWithSample } from '../../support/samples.ts';
import { parseSample, pick, sum } from './helpers.ts';

const KEYS: Array<keyof StatementLine> = [
  'lineNumber',
  'bookedDate',
  'amountMinor',
  'currency',
  'description',
  'counterpartyName',
  'bankReference',
];

describe('QIF corpus', () => {
  itWithSample(
    'statements/qif-oca-bank.qif',
    'OCA: month-first dates (8/15/13 has no 15th month), thousands separators, currency of the account',
    async () => {
      const { lines, rejected } = await parseSample('qif-oca-bank.qif', { accountCurrency: 'USD' });
      assert.deepEqual(rejected, []);
      assert.equal(lines.length, 5);
      assert.deepEqual(pick(lines[0], KEYS), {
        lineNumber: 2,
        bookedDate: '2013-08-12',
        amountMinor: -100000n,
        currency: 'USD',
        description: 'Delta PC',
        counterpartyName: 'Delta PC',
        bankReference: null,
      });
      assert.deepEqual(pick(lines[4], ['lineNumber', 'bookedDate', 'amountMinor', 'description']), {
        lineNumber: 18,
        bookedDate: '2013-03-03',
        amountMinor: -42135n,
        description: 'SPRINGFIELD WATER UTILITY',
      });
      assert.equal(sum(lines), -100000n - 7546n - 37900n - 2028n - 42135n);
    },
  );

  itWithSample(
    'statements/qif-quiffen-splits.qif',
    "quiffen: class and category lists, MM/DD'YYYY, splits as one line, Invst and Security skipped",
    async () => {
      const { lines, rejected } = await parseSample('qif-quiffen-splits.qif', { accountCurrency: 'USD' });
      assert.deepEqual(rejected, []);
      // Six Bank records; the first is Quicken's Opening Balance (0.00 to [TestExport]), not a transaction.
      assert.equal(lines.length, 5);
      assert.deepEqual(pick(lines[0], KEYS), {
        lineNumber: 35,
        bookedDate: '2020-02-14',
        amountMinor: 6750n,
        currency: 'USD',
        description: 'T-Mobile',
        counterpartyName: 'T-Mobile',
        bankReference: null,
      });
      assert.deepEqual(pick(lines[3], ['bookedDate', 'amountMinor', 'description', 'bankReference']), {
        bookedDate: '2020-02-11',
        amountMinor: -2500n,
        description: 'Walmart / non split transaction',
        bankReference: '123',
      });
      // A split with a D line of its own (1/10'2020) keeps the transaction's date; four splits, one line.
      assert.deepEqual(pick(lines[4], ['lineNumber', 'bookedDate', 'amountMinor', 'description']), {
        lineNumber: 72,
        bookedDate: '2020-02-10',
        amountMinor: -10000n,
        description: 'Amazon.com / test order 1',
      });
      assert.equal(sum(lines), 6750n + 3200n - 1000n - 2500n - 10000n);
    },
  );

  itWithSample(
    'statements/qif-spmason-normal.qif',
    'spmason: `6/ 1/94` dates with spaces, a split mortgage payment, address lines ignored',
    async () => {
      const { lines, rejected } = await parseSample('qif-spmason-normal.qif', { accountCurrency: 'USD' });
      assert.deepEqual(rejected, []);
      assert.equal(lines.length, 3);
      assert.deepEqual(pick(lines[0], KEYS), {
        lineNumber: 2,
        bookedDate: '1994-06-01',
        amountMinor: -100000n,
        currency: 'USD',
        description: 'Bank Of Mortgage',
        counterpartyName: 'Bank Of Mortgage',
        bankReference: '1005',
      });
      assert.deepEqual(pick(lines[2], ['lineNumber', 'bookedDate', 'amountMinor', 'description']), {
        lineNumber: 16,
        bookedDate: '1994-06-03',
        amountMinor: -1000n,
        description: 'JoBob Biggs / J.B. gets bucks',
      });
    },
  );
});
