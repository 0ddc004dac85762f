import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseBytes } from './helpers.ts';

// A card export of our own in the shape Irish and UK card issuers use: processed and transaction
// dates with month names, positive amounts, payments marked CR in a column of their own.
const CARD = [
  'Date Processed,Date of Transaction,Card Number,Description,Amount,CR/DR',
  '28-Mar-2020,26-Mar-2020,************1234,TESCO STORES 3021,45.20,',
  '30-Mar-2020,29-Mar-2020,************1234,PAYMENT THANK YOU,300.00,CR',
  '02-Apr-2020,01-Apr-2020,************1234,AMAZON MKTPLACE,12.99,',
].join('\n');

describe('card CSV: month-name dates and a debit/credit marker column', () => {
  it('reads every row, purchases out and the CR payment in', async () => {
    const { detection, lines, rejected } = await parseBytes(Buffer.from(CARD), 'card.csv', {
      accountKind: 'credit_card',
    });
    assert.deepEqual(rejected, []);
    assert.equal(detection.dateFormat, 'dd-MMM-yyyy');
    assert.equal(detection.mapping?.date, 'Date Processed');
    assert.equal(detection.mapping?.debitCreditMarker, 'CR/DR');
    assert.deepEqual(
      lines.map((l) => [l.bookedDate, l.amountMinor, l.description]),
      [
        ['2020-03-28', -4520n, 'TESCO STORES 3021'],
        ['2020-03-30', 30000n, 'PAYMENT THANK YOU'],
        ['2020-04-02', -1299n, 'AMAZON MKTPLACE'],
      ],
    );
  });

  it('markers in the amount cell (12.50 CR / 3.00 DR) and written month names', async () => {
    const csv = 'Date,Description,Amount\n"Mar 28, 2020",Refund,12.50 CR\n"Apr 2, 2020",Shop,3.00 DR\n';
    const { lines, rejected } = await parseBytes(Buffer.from(csv), 'card.csv', {
      accountKind: 'credit_card',
    });
    assert.deepEqual(rejected, []);
    assert.deepEqual(
      lines.map((l) => [l.bookedDate, l.amountMinor]),
      [
        ['2020-03-28', 1250n],
        ['2020-04-02', -300n],
      ],
    );
  });

  it('an unknown marker rejects its line with the reason', async () => {
    const csv = 'Date,Description,Amount,Dr/Cr\n28-Mar-2020,A,1.00,DR\n29-Mar-2020,B,2.00,XX\n';
    const { lines, rejected } = await parseBytes(Buffer.from(csv), 'x.csv');
    assert.deepEqual(
      lines.map((l) => l.amountMinor),
      [-100n],
    );
    assert.match(rejected[0]?.reason ?? '', /marker 'XX'/);
  });
});
