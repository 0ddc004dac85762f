import assert from 'node:assert/strict';
import { booksJobs } from '../../src/jobs/books-jobs.ts';
import type { Caller, TestApp } from '../support/app.ts';
import { call } from '../support/http.ts';

export type Json = Record<string, unknown>;

export async function ok<T = Json>(app: TestApp, caller: Caller, operation: string, input: Json): Promise<T> {
  const res = await call(app.baseUrl, operation, input, { token: caller.token });
  assert.equal(res.status, 200, `${operation}: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
  return res.data as T;
}

export async function createAccount(app: TestApp, caller: Caller, overrides: Json = {}): Promise<Json> {
  return ok(app, caller, 'accounts.create', {
    name: 'Checking',
    kind: 'checking',
    currency: 'EUR',
    ...overrides,
  });
}

export interface ImportRecord {
  id: string;
  state: string;
  counts: { read: number; added: number; duplicates: number; rejected: number; pending: number };
  rejected: Array<{ line: number; reason: string }>;
  error: { code: string; message: string } | null;
  detection: Json | null;
}

/** Sends a statement through transactions.imports.create, runs the books jobs, returns the finished job. */
export async function importStatement(
  app: TestApp,
  caller: Caller,
  accountId: string,
  fileName: string,
  bytes: Buffer,
  extra: Json = {},
): Promise<ImportRecord> {
  const created = await ok<{ job: { id: string; state: string } }>(
    app,
    caller,
    'transactions.imports.create',
    {
      accountId,
      fileName,
      mediaType: 'application/octet-stream',
      contentBase64: bytes.toString('base64'),
      ...extra,
    },
  );
  assert.equal(created.job.state, 'queued');
  await app.runJobs(booksJobs);
  const job = await ok<ImportRecord>(app, caller, 'transactions.imports.get', { id: created.job.id });
  assert.ok(job.state === 'succeeded' || job.state === 'failed', `job still ${job.state}`);
  return job;
}

export async function transactionsOf(app: TestApp, accountId: string) {
  return app.services.db.kysely
    .selectFrom('bank_transactions')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('booked_date')
    .orderBy('line_number')
    .execute();
}

/** Every entry of the account's transactions balances: its allocations sum to its amount. */
export async function assertEntriesBalance(app: TestApp, accountId: string): Promise<number> {
  const rows = await app.services.db.kysely
    .selectFrom('bank_transactions as t')
    .innerJoin('ledger_entries as e', 'e.id', 't.entry_id')
    .select(['e.id', 'e.amount_minor', 't.amount_minor as tx_amount'])
    .where('t.account_id', '=', accountId)
    .execute();
  for (const row of rows) {
    const allocations = await app.services.db.kysely
      .selectFrom('ledger_allocations')
      .select('amount_minor')
      .where('entry_id', '=', row.id)
      .execute();
    const sum = allocations.reduce((total, a) => total + BigInt(a.amount_minor), 0n);
    assert.equal(sum, BigInt(row.amount_minor));
    assert.equal(BigInt(row.amount_minor), BigInt(row.tx_amount));
  }
  return rows.length;
}

export function csv(lines: readonly string[]): Buffer {
  return Buffer.from(`${lines.join('\n')}\n`, 'utf8');
}
