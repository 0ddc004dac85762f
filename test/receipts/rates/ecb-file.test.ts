import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseEcbRates } from '../../../src/receipts/rates/ecb-file.ts';
import { RATES_FILE_LIMITS, RatesFileError } from '../../../src/receipts/rates/rates-file.ts';
import { BILLION_LAUGHS, EXTERNAL_ENTITY, ecbFile, NINETY_DAYS } from './ecb-samples.ts';

const refused = (bytes: Buffer, code: string) =>
  assert.throws(
    () => parseEcbRates(bytes),
    (error: unknown) => error instanceof RatesFileError && error.code === code,
  );

describe('ECB reference rates files', () => {
  test('reads every day and rate as written', () => {
    const days = parseEcbRates(NINETY_DAYS);
    assert.deepEqual(
      days.map((d) => d.date),
      ['2026-11-27', '2026-11-26', '2026-11-20'],
    );
    assert.equal(days[0]?.rates.get('USD'), '1.0512');
    assert.equal(days[0]?.rates.get('JPY'), '162.04');
    assert.equal(days[2]?.rates.size, 4);
  });

  test('hostile and malformed files are refused with a stable code', () => {
    refused(BILLION_LAUGHS, 'rates_unsafe_xml');
    refused(EXTERNAL_ENTITY, 'rates_unsafe_xml');
    refused(Buffer.from(NINETY_DAYS.toString().slice(0, 400)), 'rates_malformed_file');
    refused(Buffer.from('<html><body>Service unavailable</body></html>'), 'rates_not_ecb_format');
    refused(ecbFile([{ date: '2026-11-31', rates: { USD: '1.05' } }]), 'rates_invalid_value');
    refused(ecbFile([{ date: '2026-11-27', rates: { USD: '-1.05' } }]), 'rates_invalid_value');
    refused(ecbFile([{ date: '2026-11-27', rates: { USD: '1e5' } }]), 'rates_invalid_value');
    refused(ecbFile([{ date: '2026-11-27', rates: { usd: '1.05' } }]), 'rates_invalid_value');
    refused(
      ecbFile([
        { date: '2026-11-27', rates: { USD: '1.05' } },
        { date: '2026-11-27', rates: { USD: '1.06' } },
      ]),
      'rates_invalid_value',
    );
    refused(Buffer.from([0xff, 0xfe, 0x3c, 0x00]), 'rates_malformed_file');
  });

  test('size, element and depth caps', () => {
    refused(Buffer.alloc(RATES_FILE_LIMITS.bytes + 1, 0x20), 'rates_file_too_large');
    const wide = Buffer.from(
      `<gesmes:Envelope xmlns:gesmes="x">${'<a/>'.repeat(RATES_FILE_LIMITS.elements + 1)}</gesmes:Envelope>`,
    );
    refused(wide, 'rates_limit_exceeded');
    const deep = Buffer.from(`<Envelope>${'<a>'.repeat(100)}${'</a>'.repeat(100)}</Envelope>`);
    refused(deep, 'rates_limit_exceeded');
    const manyInADay = ecbFile([
      {
        date: '2026-11-27',
        rates: Object.fromEntries(
          Array.from({ length: 26 * 26 }, (_, i) => [
            `A${String.fromCharCode(65 + Math.floor(i / 26))}${String.fromCharCode(65 + (i % 26))}`,
            '1.0',
          ]),
        ),
      },
    ]);
    refused(manyInADay, 'rates_limit_exceeded');
  });
});
