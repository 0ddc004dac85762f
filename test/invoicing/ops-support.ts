import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Caller, TestApp } from '../support/app.ts';
import { call } from '../support/http.ts';

/** Shared steps of the invoicing operation tests (real HTTP, as any client would do them). */

export type Json = Record<string, unknown>;

export async function createParty(app: TestApp, caller: Caller, input: Json = {}): Promise<Json> {
  const res = await call(
    app.baseUrl,
    'parties.create',
    {
      name: 'Northwind Traders',
      email: `billing-${Math.random().toString(36).slice(2)}@northwind.example`,
      ...input,
    },
    { token: caller.token },
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.data as Json;
}

export const LINE = { description: 'Consulting', quantity: '1.5', unitAmountMinor: '123450', taxRate: '13' };

export async function createInvoice(
  app: TestApp,
  caller: Caller,
  partyId: string,
  input: Json = {},
): Promise<Json> {
  const res = await call(
    app.baseUrl,
    'invoices.create',
    { partyId, currency: 'CAD', lines: [LINE], issueDate: '2026-01-10', dueDate: '2026-02-09', ...input },
    { token: caller.token },
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.data as Json;
}

export async function sendInvoice(app: TestApp, caller: Caller, invoice: Json, key?: string): Promise<Json> {
  const res = await call(
    app.baseUrl,
    'invoices.send',
    { id: invoice.id, expectedRevision: invoice.revision },
    { token: caller.token, ...(key ? { idempotencyKey: key } : {}) },
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.data as Json;
}

export async function eventsOf(app: TestApp, subjectId: string) {
  const rows = await app.services.db.kysely
    .selectFrom('events')
    .selectAll()
    .where('subject_id', '=', subjectId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    type: row.type,
    subject: { type: row.subject_type, id: row.subject_id },
    data: (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as Json,
  }));
}

const havePdftotext = spawnSync('pdftotext', ['-v']).error === undefined;

/** Text of a PDF through poppler's pdftotext (the PDF renders), or null where it is not installed. */
export function pdfText(pdf: Buffer): string | null {
  if (!havePdftotext) return null;
  const dir = mkdtempSync(join(tmpdir(), 'invoice-ops-'));
  try {
    writeFileSync(join(dir, 'i.pdf'), pdf);
    const result = spawnSync('pdftotext', ['-layout', '-enc', 'UTF-8', join(dir, 'i.pdf'), '-'], {
      encoding: 'utf8',
    });
    assert.equal(result.status, 0, result.stderr);
    return result.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
