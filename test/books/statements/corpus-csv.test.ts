import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { itWithSample } from '../../support/samples.ts';
import { parseSample, pick, sum } from './helpers.ts';

describe('CSV corpus', () => {
  itWithSample(
    'statements/csv-ingde-latin1.csv',
    'ING Germany: Latin-1, a 14-line preamble, decimal commas, two Währung columns',
    async () => {
      const { detection, lines, rejected } = await parseSample('csv-ingde-latin1.csv');
      assert.deepEqual(rejected, []);
      assert.equal(detection.encoding, 'latin-1');
      assert.equal(detection.separator, ';');
      assert.equal(detection.dateFormat, 'dd.MM.yyyy');
      assert.equal(detection.decimalSeparator, ',');
      assert.equal(detection.headerLine, 15);
      assert.equal(detection.mapping?.date, 'Buchung');
      assert.equal(detection.mapping?.amount, 'Betrag');
      assert.equal(detection.mapping?.description, 'Verwendungszweck');
      assert.equal(lines.length, 9);
      assert.deepEqual(
        pick(lines[0], [
          'lineNumber',
          'bookedDate',
          'valueDate',
          'amountMinor',
          'currency',
          'description',
          'counterpartyName',
        ]),
        {
          lineNumber: 16,
          bookedDate: '2018-12-28',
          valueDate: '2018-12-28',
          amountMinor: -550n,
          currency: 'EUR',
          description: 'PP.1234.PP . Blumen Berther',
          counterpartyName: 'PayDude (Europe) S.a.r.l. et Cie., S .C.A.',
        },
      );
      assert.deepEqual(pick(lines[1], ['amountMinor', 'counterpartyName']), {
        amountMinor: 5000n,
        counterpartyName: 'Karl Karlsen',
      });
      // Latin-1 0xDC is Ü.
      assert.deepEqual(
        pick(lines[5], [
          'lineNumber',
          'bookedDate',
          'valueDate',
          'amountMinor',
          'description',
          'counterpartyName',
        ]),
        {
          lineNumber: 21,
          bookedDate: '2018-12-10',
          valueDate: '2018-12-28',
          amountMinor: -15000n,
          description: 'Übernachtung in Neuenhausen am 21.05.2017',
          counterpartyName: 'VISA Hotel XY',
        },
      );
      assert.deepEqual(
        pick(lines[8], ['lineNumber', 'bookedDate', 'valueDate', 'amountMinor', 'description']),
        {
          lineNumber: 24,
          bookedDate: '2018-12-09',
          valueDate: '2018-12-10',
          amountMinor: -290n,
          description: 'OnlineTicket Neustadter Verkehr',
        },
      );
      // The Saldo column: 325,70 after the oldest row (-2,90), so 328,60 before it; 150,00 after the newest.
      assert.equal(32860n + sum(lines), 15000n);
    },
  );

  itWithSample(
    'statements/csv-revolut-pending.csv',
    'Revolut: completed and pending rows, pending ones dated by Started Date',
    async () => {
      const { detection, lines, rejected } = await parseSample('csv-revolut-pending.csv');
      assert.deepEqual(rejected, []);
      assert.equal(detection.separator, ',');
      assert.equal(detection.decimalSeparator, '.');
      assert.equal(detection.mapping?.date, 'Completed Date');
      assert.equal(detection.mapping?.status, 'State');
      assert.equal(lines.length, 9);
      assert.deepEqual(
        pick(lines[0], ['lineNumber', 'bookedDate', 'amountMinor', 'currency', 'description', 'pending']),
        {
          lineNumber: 2,
          bookedDate: '2022-01-02',
          amountMinor: -25000n,
          currency: 'EUR',
          description: 'To Guybrush Threepwood',
          pending: false,
        },
      );
      // Started 2022-01-06, completed 2022-01-07: the booking date is the completion.
      assert.deepEqual(pick(lines[2], ['bookedDate', 'amountMinor', 'description']), {
        bookedDate: '2022-01-07',
        amountMinor: -3871n,
        description: 'Something and something',
      });
      assert.deepEqual(
        lines
          .filter((l) => l.pending)
          .map((l) => pick(l, ['lineNumber', 'bookedDate', 'amountMinor', 'description'])),
        [
          { lineNumber: 7, bookedDate: '2022-01-13', amountMinor: -4457n, description: 'store' },
          { lineNumber: 10, bookedDate: '2022-01-15', amountMinor: -7358n, description: 'www.pending.com' },
        ],
      );
      assert.equal(
        sum(lines.filter((l) => !l.pending)),
        -25000n + 0n - 3871n + 50000n - 2158n - 3389n - 6926n,
      );
    },
  );

  itWithSample(
    'statements/csv-sparkasse-camt-csv.csv',
    'Sparkasse CSV-CAMT: quoted cells, two-digit years, pending "Umsatz vorgemerkt", Latin-1',
    async () => {
      const { detection, lines, rejected } = await parseSample('csv-sparkasse-camt-csv.csv');
      assert.deepEqual(rejected, []);
      assert.equal(detection.encoding, 'latin-1');
      assert.equal(detection.dateFormat, 'dd.MM.yy');
      assert.equal(lines.length, 18);
      assert.deepEqual(
        pick(lines[0], [
          'lineNumber',
          'accountRef',
          'bookedDate',
          'valueDate',
          'amountMinor',
          'description',
          'counterpartyName',
          'counterpartyIban',
          'bankReference',
          'pending',
        ]),
        {
          lineNumber: 2,
          accountRef: '12345678',
          bookedDate: '2018-04-03',
          valueDate: '2018-04-04',
          amountMinor: -2259n,
          description: 'KD-Nr. 1234123413244/ RG-Nr. 1234123412341',
          counterpartyName: '1u1 Telecom GmbH Elgendorfer Str. 57',
          counterpartyIban: 'DE12341234123412341234',
          bankReference: '1234412341234',
          pending: true,
        },
      );
      assert.equal(lines.filter((l) => l.pending).length, 1);
      assert.deepEqual(pick(lines[11], ['bookedDate', 'amountMinor', 'description', 'counterpartyName']), {
        bookedDate: '2018-03-28',
        amountMinor: 35000n,
        description: 'Hans Müller Erbe abzügl. Gebühren',
        counterpartyName: 'John Oliver',
      });
      assert.deepEqual(pick(lines[14], ['bookedDate', 'valueDate', 'amountMinor', 'description']), {
        bookedDate: '2018-03-26',
        valueDate: '2018-03-24',
        amountMinor: -20000n,
        description: '24.03/14.30UHR Böbbingen',
      });
      assert.deepEqual(
        pick(lines[17], [
          'lineNumber',
          'bookedDate',
          'amountMinor',
          'description',
          'counterpartyName',
          'counterpartyIban',
        ]),
        {
          lineNumber: 19,
          bookedDate: '2018-03-21',
          amountMinor: -1649n,
          description: '20.03.18 1234123412341234',
          counterpartyName: 'KREDITKARTENABRECHNUNG',
          counterpartyIban: '1234123412',
        },
      );
      // The Betrag column adds up to 107,17.
      assert.equal(sum(lines), 10717n);
    },
  );
});
