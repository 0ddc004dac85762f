// Receipt intake benchmark, run by hand (results go to docs/benchmarks.md):
//
//   node --import tsx bench/receipt-intake.ts <sqlite|postgres> [--receipts 200] [--transactions 500]
//
// The real service on a fresh database, end to end: N distinct UBL receipts are uploaded over
// HTTP (receipts.upload), then the extraction job runs them (claim, worker-pool extraction,
// receipt entry, suggestions against the open transactions, receipt.processed) in this process.
// Prints uploads/s and receipts processed/s (claim to committed result, two extractions at a time
// in the pool, one job loop), and how many got their matching transaction as top suggestion.
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { addMember, createApiKey, createOrganization } from '../src/admin/organizations.ts';
import { loadConfig } from '../src/config.ts';
import { ALL_SCOPES } from '../src/contract/access.ts';
import type { DialectName } from '../src/db/database.ts';
import { runReceiptExtractions } from '../src/receipts/processing/job.ts';
import { buildServer } from '../src/server.ts';
import { createServices } from '../src/services.ts';
import { createTestDatabase } from '../test/support/databases.ts';
import { ublReceipt } from '../test/support/receipts.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { receipts: { type: 'string', default: '200' }, transactions: { type: 'string', default: '500' } },
});
const dialect = (positionals[0] ?? 'sqlite') as DialectName;
const receiptCount = Number(values.receipts);
const transactionCount = Math.max(Number(values.transactions), receiptCount);

const database = await createTestDatabase(dialect);
const config = loadConfig({ LOG_LEVEL: 'silent', ACCOUNTING_RATE_LIMIT: '1000000/1m' });
const services = await createServices(config, { db: database.db, logger: pino({ level: 'silent' }) });
const server = await buildServer(services);
const baseUrl = await server.listen({ port: 0, host: '127.0.0.1' });
const { kysely } = services.db;
const organization = await createOrganization(kysely, services.clock, { name: 'Bench' });
const member = await addMember(kysely, services.clock, {
  organizationId: organization.id,
  email: 'bench@example.com',
  role: 'admin',
});
const key = await createApiKey(kysely, services.clock, {
  organizationId: organization.id,
  memberId: member.id,
  scopes: ALL_SCOPES,
});

async function post(operation: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await fetch(`${baseUrl}/api/v1/accounting/${operation}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key.token}`,
      'content-type': 'application/json',
      'idempotency-key': `bench-${Math.random()}`,
    },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { data?: Record<string, unknown> };
  if (res.status !== 200 || !json.data)
    throw new Error(`${operation}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

const merchants = [
  'Blue Bottle Coffee',
  'Shell Station',
  'Hotel Adlon',
  'Bahn Ticket',
  'Office Depot',
  'Uber Trip',
  'Apple Store',
  'Lidl Filiale',
];
const day = (i: number) => new Date(Date.UTC(2026, 0, 1) + (i % 300) * 86_400_000).toISOString().slice(0, 10);
const account = await post('accounts.create', { name: 'Card', kind: 'credit_card', currency: 'EUR' });
const expected = new Map<string, string>();
for (let i = 0; i < transactionCount; i++) {
  const tx = await post('transactions.create', {
    accountId: account.id,
    bookedDate: day(i + 1),
    amountMinor: `-${1000 + i * 7}`,
    description: `${merchants[i % merchants.length]?.toUpperCase()} ${1000 + i}`,
  });
  expected.set(`${i}`, String(tx.id));
}
// Suggestions for new transactions are not part of this measure: mark them scanned.
await kysely.updateTable('bank_transactions').set({ match_scanned_at: new Date().toISOString() }).execute();

let started = performance.now();
const receiptIds: string[] = [];
for (let i = 0; i < receiptCount; i++) {
  const bytes = ublReceipt({
    id: `B-${i}`,
    merchant: merchants[i % merchants.length] ?? 'X',
    date: day(i),
    amountMinor: BigInt(1000 + i * 7),
  });
  const data = await post('receipts.upload', {
    fileName: `r${i}.xml`,
    mediaType: 'application/xml',
    contentBase64: bytes.toString('base64'),
  });
  receiptIds.push(String((data.item as { id: string }).id));
}
const uploadSeconds = (performance.now() - started) / 1000;

started = performance.now();
// Two job loops, as `serve` plus one `worker` would run: the pool extracts two at a time.
const loop = async () => {
  while ((await runReceiptExtractions(services)) > 0);
};
await Promise.all([loop(), loop()]);
const processSeconds = (performance.now() - started) / 1000;

let topRight = 0;
for (let i = 0; i < receiptIds.length; i++) {
  const top = await kysely
    .selectFrom('match_suggestions')
    .select('transaction_id')
    .where('receipt_id', '=', receiptIds[i] ?? '')
    .orderBy('score', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (top?.transaction_id === expected.get(`${i}`)) topRight++;
}
const states = await kysely
  .selectFrom('receipts')
  .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
  .groupBy('state')
  .execute();
console.log(
  JSON.stringify({
    dialect,
    receipts: receiptCount,
    openTransactions: transactionCount,
    uploadsPerSecond: Number((receiptCount / uploadSeconds).toFixed(1)),
    processedPerSecond: Number((receiptCount / processSeconds).toFixed(1)),
    topSuggestionRight: `${topRight}/${receiptCount}`,
    states: Object.fromEntries(states.map((s) => [s.state, Number(s.n)])),
  }),
);
await server.close();
await database.drop();
process.exit(0);
