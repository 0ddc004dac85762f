import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseBytes, pick } from './helpers.ts';

describe('format details the corpus does not show', () => {
  it('MT940: entry date across the year end, RC/RD reversals, funds code letter', async () => {
    const mt = [
      ':20:ROLLOVER',
      ':25:DE89370400440532013000',
      ':28C:1/1',
      ':60F:C241231EUR100,00',
      ':61:2412310102D10,00NTRFNONREF//B1',
      ':86:Booked in the new year',
      ':61:2501021231C5,00NTRFNONREF//B2',
      ':86:Booked the year before its value date',
      ':61:250103RC2,50NCHGNONREF//B3',
      ':86:Reversal of a credit',
      ':61:250103RDR1,25NCHGNONREF//B4',
      ':86:Reversal of a debit, funds code R',
      ':62F:C250103EUR93,75',
      '-',
    ].join('\r\n');
    const { lines, rejected } = await parseBytes(Buffer.from(mt), 'x.sta');
    assert.deepEqual(rejected, []);
    assert.deepEqual(
      lines.map((l) => pick(l, ['bookedDate', 'valueDate', 'amountMinor', 'bankReference', 'reversal'])),
      [
        {
          bookedDate: '2025-01-02',
          valueDate: '2024-12-31',
          amountMinor: -1000n,
          bankReference: 'B1',
          reversal: undefined,
        },
        {
          bookedDate: '2024-12-31',
          valueDate: '2025-01-02',
          amountMinor: 500n,
          bankReference: 'B2',
          reversal: undefined,
        },
        {
          bookedDate: '2025-01-03',
          valueDate: '2025-01-03',
          amountMinor: -250n,
          bankReference: 'B3',
          reversal: true,
        },
        {
          bookedDate: '2025-01-03',
          valueDate: '2025-01-03',
          amountMinor: 125n,
          bankReference: 'B4',
          reversal: true,
        },
      ],
    );
    assert.equal(10000n + lines.reduce((s, l) => s + l.amountMinor, 0n), 9375n);
  });

  it('OFX: CURRENCY (amount in a foreign currency) and ORIGCURRENCY (converted already) both give EUR lines', async () => {
    const ofx = `OFXHEADER:100
DATA:OFXSGML
VERSION:102

<OFX><CREDITCARDMSGSRSV1><CCSTMTTRNRS><CCSTMTRS><CURDEF>EUR<CCACCTFROM><ACCTID>4000123412349876</CCACCTFROM>
<BANKTRANLIST>
<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240105<TRNAMT>-50.00<FITID>F1<NAME>NYC DELI<CURRENCY><CURRATE>0.92<CURSYM>USD</CURRENCY></STMTTRN>
<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240106<TRNAMT>-46.00<FITID>F2<NAME>NYC CAB<ORIGCURRENCY><CURRATE>0.92<CURSYM>USD</ORIGCURRENCY></STMTTRN>
<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240107<TRNAMT>-1000<FITID>F3<NAME>TOKYO<CURRENCY><CURRATE>0.0062<CURSYM>JPY</CURRENCY></STMTTRN>
</BANKTRANLIST></CCSTMTRS></CCSTMTTRNRS></CREDITCARDMSGSRSV1></OFX>
`;
    const { lines, rejected } = await parseBytes(Buffer.from(ofx), 'card.qfx');
    assert.deepEqual(rejected, []);
    assert.deepEqual(
      lines.map((l) =>
        pick(l, ['amountMinor', 'currency', 'originalAmountMinor', 'originalCurrency', 'cardLastFour']),
      ),
      [
        {
          amountMinor: -4600n,
          currency: 'EUR',
          originalAmountMinor: -5000n,
          originalCurrency: 'USD',
          cardLastFour: '9876',
        },
        {
          amountMinor: -4600n,
          currency: 'EUR',
          originalAmountMinor: -5000n,
          originalCurrency: 'USD',
          cardLastFour: '9876',
        },
        // JPY has no decimals: 1000 yen at 0.0062 is 6.20 EUR.
        {
          amountMinor: -620n,
          currency: 'EUR',
          originalAmountMinor: -1000n,
          originalCurrency: 'JPY',
          cardLastFour: '9876',
        },
      ],
    );
  });

  it('OFX: two accounts in two STMTTRNRS, each line with its own account and currency', async () => {
    const stmt = (acct: string, ccy: string, fitid: string, amt: string): string =>
      `<STMTTRNRS><TRNUID>1</TRNUID><STMTRS><CURDEF>${ccy}</CURDEF><BANKACCTFROM><BANKID>1</BANKID><ACCTID>${acct}</ACCTID>` +
      `<ACCTTYPE>CHECKING</ACCTTYPE></BANKACCTFROM><BANKTRANLIST><STMTTRN><TRNTYPE>DEBIT</TRNTYPE><DTPOSTED>20240301</DTPOSTED>` +
      `<TRNAMT>${amt}</TRNAMT><FITID>${fitid}</FITID><NAME>Shop &amp; Co</NAME></STMTTRN></BANKTRANLIST></STMTRS></STMTTRNRS>`;
    const ofx = `<?xml version="1.0"?>\n<?OFX OFXHEADER="200" VERSION="220"?>\n<OFX><BANKMSGSRSV1>${stmt('111', 'EUR', 'A1', '-1.50')}${stmt('222', 'JPY', 'B1', '-150')}</BANKMSGSRSV1></OFX>`;
    const { lines, rejected } = await parseBytes(Buffer.from(ofx), 'two.ofx');
    assert.deepEqual(rejected, []);
    assert.deepEqual(
      lines.map((l) => pick(l, ['accountRef', 'currency', 'amountMinor', 'bankReference', 'description'])),
      [
        {
          accountRef: '111',
          currency: 'EUR',
          amountMinor: -150n,
          bankReference: 'A1',
          description: 'Shop & Co',
        },
        {
          accountRef: '222',
          currency: 'JPY',
          amountMinor: -150n,
          bankReference: 'B1',
          description: 'Shop & Co',
        },
      ],
    );
  });

  it('QIF: a file whose dates show day-first (31/01/2024) is read day-first throughout', async () => {
    const qif = '!Type:CCard\nD05/01/2024\nT-10.00\nPA\n^\nD31/01/2024\nU-1.234,50\nPB\n^\n';
    const { lines, rejected } = await parseBytes(Buffer.from(qif), 'x.qif');
    assert.deepEqual(rejected, []);
    assert.deepEqual(
      lines.map((l) => [l.bookedDate, l.amountMinor]),
      [
        ['2024-01-05', -1000n],
        ['2024-01-31', -123450n],
      ],
    );
  });

  it('CSV: a header with no rows yields nothing; a header after a preamble is found', async () => {
    const empty = await parseBytes(Buffer.from('Date,Description,Amount\n'), 'x.csv');
    assert.deepEqual([empty.lines, empty.rejected], [[], []]);
    const preamble = await parseBytes(
      Buffer.from('Account;123\nExported;today\n\nDatum;Text;Betrag\n02.01.2024;x;-1,00\n'),
      'x.csv',
    );
    assert.equal(preamble.detection.headerLine, 4);
    assert.deepEqual(
      preamble.lines.map((l) => [l.lineNumber, l.amountMinor]),
      [[5, -100n]],
    );
  });
});
