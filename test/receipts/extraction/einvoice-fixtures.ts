import { readFileSync } from 'node:fs';
import path from 'node:path';

// E-invoices written for these tests (test/fixtures/einvoices): a UBL 2.1 invoice (Koffiebar
// Lindeboom, 2015-01-09, EUR 250.33) and a CII D16B invoice (Lindqvist Office Supplies,
// LB-2024-0117, 2024-03-14, EUR 1,125.00). Real third-party ones are in test/support/samples.ts.
export function einvoiceFixture(name: 'ubl-invoice.xml' | 'cii-invoice.xml'): Buffer {
  return readFileSync(path.resolve('test', 'fixtures', 'einvoices', name));
}
