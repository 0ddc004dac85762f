import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StatementLine } from '../../../src/books/statements/index.ts';
import { parseBytes, parseFixture, pick, sum } from './helpers.ts';

const amounts = (lines: StatementLine[]): bigint[] => lines.map((l) => l.amountMinor);

describe('own fixtures', () => {
  it('CAMT.053 v08: three accounts, a converted card purchase with fees, pending, an unbalanced batch, JPY', async () => {
    const { lines, rejected } = await parseFixture('camt053-multi-account-fx-fees.xml');
    assert.equal(lines.length, 5);
    assert.deepEqual(
      pick(lines[0], [
        'lineNumber',
        'accountRef',
        'bookedDate',
        'valueDate',
        'amountMinor',
        'currency',
        'originalAmountMinor',
        'originalCurrency',
        'description',
        'counterpartyName',
        'bankReference',
        'cardLastFour',
        'feesMinor',
        'pending',
      ]),
      {
        lineNumber: 1,
        accountRef: 'DE89370400440532013000',
        bookedDate: '2024-02-29',
        valueDate: '2024-02-28',
        amountMinor: -4740n,
        currency: 'EUR',
        originalAmountMinor: -5000n,
        originalCurrency: 'USD',
        description: 'Card purchase USD 50.00',
        counterpartyName: 'BLUE BOTTLE COFFEE SAN FRANCISCO',
        bankReference: 'REF-CARD-1',
        cardLastFour: '4242',
        feesMinor: -150n,
        pending: false,
      },
    );
    // 1000 + 400 is not 1500: the batch stays one line with the entry's amount and text.
    assert.deepEqual(pick(lines[1], ['amountMinor', 'description', 'bankReference']), {
      amountMinor: 150000n,
      description: 'Collected payments',
      bankReference: 'REF-BATCH-ODD',
    });
    assert.deepEqual(pick(lines[2], ['amountMinor', 'pending', 'description']), {
      amountMinor: -9999n,
      pending: true,
      description: 'Card reservation HOTEL',
    });
    assert.deepEqual(
      pick(lines[3], [
        'accountRef',
        'amountMinor',
        'currency',
        'counterpartyName',
        'counterpartyIban',
        'description',
      ]),
      {
        accountRef: 'US-ACCT-77',
        amountMinor: 25025n,
        currency: 'USD',
        counterpartyName: 'ACME Corp',
        counterpartyIban: 'GB29NWBK60161331926819',
        description: 'Invoice 2024-017',
      },
    );
    assert.deepEqual(pick(lines[4], ['accountRef', 'amountMinor', 'currency', 'bankReference']), {
      accountRef: 'JP00TEST0000000001',
      amountMinor: -12345n,
      currency: 'JPY',
      bankReference: 'JP-1',
    });
    assert.deepEqual(rejected, [
      { lineNumber: 6, reason: "entry 6: amount '12.5' has more decimals than JPY allows (0)" },
    ]);
    // Balances of the fixture: EUR 1000.00 -> 2452.60 (pending excluded), USD -10.00 -> 240.25, JPY 100000 -> 87655.
    assert.equal(100000n + sum(lines.slice(0, 3).filter((l) => !l.pending)), 245260n);
    assert.equal(-1000n + sum(lines.slice(3, 4)), 24025n);
    assert.equal(100000n + sum(lines.slice(4)), 87655n);
  });

  it('German CSV with Soll/Haben columns and 1.234,56 amounts', async () => {
    const { detection, lines, rejected } = await parseFixture('csv-de-soll-haben.csv');
    assert.deepEqual(rejected, []);
    assert.equal(detection.mapping?.debit, 'Soll');
    assert.equal(detection.mapping?.credit, 'Haben');
    assert.deepEqual(amounts(lines), [-125000n, 345678n, -420n]);
    assert.deepEqual(pick(lines[2], ['bookedDate', 'valueDate', 'description', 'counterpartyName']), {
      bookedDate: '2024-01-04',
      valueDate: '2024-01-05',
      description: 'Kartenzahlung Bäckerei',
      counterpartyName: 'Bäckerei Schmidt',
    });
  });

  it('French CSV in Latin-1 with Débit/Crédit, a minus in the debit column, space grouping', async () => {
    const { detection, lines, rejected } = await parseFixture('csv-fr-debit-credit.csv');
    assert.deepEqual(rejected, []);
    assert.equal(detection.encoding, 'latin-1');
    assert.equal(detection.dateFormat, 'dd/MM/yyyy');
    assert.equal(detection.mapping?.description, 'Libellé');
    assert.deepEqual(amounts(lines), [-8990n, 210000n, -250n]);
    assert.equal(lines[1]?.bookedDate, '2024-01-16');
  });

  it('English CSV with Debit/Credit, quoted cells, month-first dates', async () => {
    const { detection, lines, rejected } = await parseFixture('csv-en-debit-credit.csv', {
      accountCurrency: 'USD',
    });
    assert.deepEqual(rejected, []);
    assert.equal(detection.dateFormat, 'MM/dd/yyyy');
    assert.deepEqual(amounts(lines), [-450n, 123456n, -1200n]);
    assert.equal(lines[0]?.description, 'COFFEE SHOP, DOWNTOWN');
  });

  it('credit card CSV showing purchases as positive: detected and inverted, or as the mapping says', async () => {
    const card = await parseFixture('csv-creditcard-positive-purchases.csv', {
      accountKind: 'credit_card',
      accountCurrency: 'USD',
    });
    assert.equal(card.detection.mapping?.sign, 'invert');
    assert.deepEqual(amounts(card.lines), [-2599n, -1340n, 50000n, -6412n]);
    const checking = await parseFixture('csv-creditcard-positive-purchases.csv', { accountCurrency: 'USD' });
    assert.deepEqual(amounts(checking.lines), [2599n, 1340n, -50000n, 6412n]);
    const told = await parseFixture('csv-creditcard-positive-purchases.csv', {
      accountKind: 'credit_card',
      accountCurrency: 'USD',
      mapping: { date: 'Transaction Date', amount: 'Amount', description: 'Description', sign: 'as_is' },
    });
    assert.deepEqual(amounts(told.lines), [2599n, 1340n, -50000n, 6412n]);
    assert.equal(told.lines[0]?.bookedDate, '2024-02-01');
  });

  it('TSV: tab separated, a pipe inside a cell', async () => {
    const { detection, lines, rejected } = await parseFixture('tsv-export.tsv');
    assert.deepEqual(rejected, []);
    assert.equal(detection.separator, '\t');
    assert.deepEqual(amounts(lines), [100000n, -75000n]);
    assert.equal(lines[1]?.description, 'RENT | MARCH');
  });

  it('UTF-16LE with a byte order mark', async () => {
    const { detection, lines, rejected } = await parseFixture('csv-utf16le-bom.csv');
    assert.deepEqual(rejected, []);
    assert.equal(detection.encoding, 'utf-16le');
    assert.deepEqual(
      lines.map((l) => pick(l, ['bookedDate', 'amountMinor', 'description'])),
      [
        { bookedDate: '2024-05-01', amountMinor: -350n, description: 'Café Noir' },
        { bookedDate: '2024-05-02', amountMinor: 250000n, description: 'Gehalt € Mai' },
      ],
    );
  });

  it('UTF-16BE and UTF-8 with BOM read the same', async () => {
    const text = 'Date,Description,Amount\n2024-01-02,Zoë,-1.00\n';
    const be = Buffer.from(text, 'utf16le');
    be.swap16();
    const utf16be = await parseBytes(Buffer.concat([Buffer.from([0xfe, 0xff]), be]), 'a.csv');
    const bom8 = await parseBytes(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]),
      'a.csv',
    );
    assert.equal(utf16be.detection.encoding, 'utf-16be');
    assert.equal(bom8.detection.encoding, 'utf-8');
    for (const p of [utf16be, bom8])
      assert.deepEqual(pick(p.lines[0], ['description', 'amountMinor']), {
        description: 'Zoë',
        amountMinor: -100n,
      });
  });

  it('JPY: no decimals, `1,280` is grouping, a fraction of a yen is rejected with its line', async () => {
    const { lines, rejected } = await parseFixture('csv-jpy.csv', { accountCurrency: 'JPY' });
    assert.deepEqual(amounts(lines), [-1280n, 350000n]);
    assert.equal(lines[0]?.currency, 'JPY');
    assert.deepEqual(rejected, [
      { lineNumber: 4, reason: "amount '-12.5' has more decimals than JPY allows (0)" },
    ]);
  });

  it('BHD and KWD have three decimals', async () => {
    const csv = Buffer.from(
      'Date,Description,Amount,Currency\n2024-01-01,a,-1.234,BHD\n2024-01-02,b,"12,345.678",KWD\n',
    );
    const { lines, rejected } = await parseBytes(csv, 'x.csv', {
      mapping: {
        date: 'Date',
        amount: 'Amount',
        description: 'Description',
        currency: 'Currency',
        decimalSeparator: '.',
      },
    });
    assert.deepEqual(rejected, []);
    assert.deepEqual(
      lines.map((l) => [l.amountMinor, l.currency]),
      [
        [-1234n, 'BHD'],
        [12345678n, 'KWD'],
      ],
    );
  });

  it('a mapping by column index on a file without a header', async () => {
    const csv = Buffer.from('31.01.2024;Rent;-800,00\n01.02.2024;Refund;12,30\n');
    const { lines, rejected, detection } = await parseBytes(csv, 'x.csv', {
      mapping: { date: 0, description: 1, amount: 2 },
    });
    assert.deepEqual(rejected, []);
    assert.equal(detection.decimalSeparator, ',');
    assert.deepEqual(
      lines.map((l) => [l.lineNumber, l.bookedDate, l.amountMinor]),
      [
        [1, '2024-01-31', -80000n],
        [2, '2024-02-01', 1230n],
      ],
    );
  });
});
