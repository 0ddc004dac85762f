import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatementFileError } from '../../../src/books/statements/index.ts';
import { parseBytes } from './helpers.ts';

/** One MT940 message inside SWIFT blocks, as a bank's file transfer link sends it. */
function message(n: number, amount: string, closing: string): string {
  return [
    `{1:F01BANKDEFFAXXX0000${n}00000}{2:O9401200240301BANKDEFFAXXX00000000002403011200N}{4:`,
    `:20:STMT${n}`,
    ':25:DE89370400440532013000',
    `:28C:${n}/1`,
    ':60F:C240301EUR1000,00',
    `:61:2403010301D${amount}NMSCNONREF//B${n}`,
    `:86:Kartenzahlung Markt ${n}`,
    `:62F:C240301EUR${closing}`,
    '-}',
  ].join('\r\n');
}

const SOH = '\x01';
const ETX = '\x03';

describe('MT940 framed by transmission control bytes', () => {
  it('strips SOH/ETX around each message and reads every message', async () => {
    const text = `${SOH}${message(1, '12,50', '987,50')}${ETX}${SOH}${message(2, '7,25', '992,75')}${ETX}`;
    const { lines, rejected } = await parseBytes(Buffer.from(text, 'latin1'), 'statement.fin');
    assert.deepEqual(rejected, []);
    assert.deepEqual(
      lines.map((l) => [l.bookedDate, l.amountMinor, l.description]),
      [
        ['2024-03-01', -1250n, 'Kartenzahlung Markt 1'],
        ['2024-03-01', -725n, 'Kartenzahlung Markt 2'],
      ],
    );
  });

  it('also without SWIFT blocks, one message per SOH ... ETX', async () => {
    const bare = message(3, '1,00', '999,00').split('\r\n').slice(1, -1).join('\r\n');
    const { lines } = await parseBytes(Buffer.from(`${SOH}\r\n${bare}\r\n${ETX}`, 'latin1'), 'x.sta');
    assert.deepEqual(
      lines.map((l) => l.amountMinor),
      [-100n],
    );
  });

  it('control bytes in a file that is not MT940 are still bad_encoding', async () => {
    const csv = Buffer.from(`${SOH}Date,Description,Amount\r\n2024-03-01,Coffee,-3.00\r\n${ETX}`, 'latin1');
    await assert.rejects(
      parseBytes(csv, 'x.csv'),
      (e: unknown) => e instanceof StatementFileError && e.code === 'bad_encoding',
    );
  });
});
