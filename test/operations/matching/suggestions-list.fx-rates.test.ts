// Foreign receipts without the bank's original amount (issue 26 part 3), end to end: the rates
// loaded by `accounting rates load` (here its domain function) are used by the date of the charge,
// and the rates implied by the organization's confirmed foreign matches when no table has the
// currency. The suggestion's reasons name the table or the match and the date.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadRatesFile } from '../../../src/receipts/rates/load.ts';
import { ecbFile } from '../../receipts/rates/ecb-samples.ts';
import { createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call } from '../../support/http.ts';
import { ublReceipt } from '../../support/receipts.ts';
import { uploadAndProcess } from '../receipts/helpers.ts';
import { cardAccount, cardTransaction } from './helpers.ts';

type Listed = { id: string; transaction_id: string; revision: number; score: number; reasons: string[] };

async function listed(app: TestApp, token: string, receiptId: string): Promise<Listed[]> {
  const res = await call(app.baseUrl, 'matching.suggestions.list', { receiptId }, { token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return (res.data as { items: Listed[] }).items;
}

for (const dialect of DIALECTS) {
  describe(`foreign receipts scored by dated and implied rates (${dialect})`, () => {
    let app: TestApp;
    const dir = mkdtempSync(path.join(tmpdir(), 'accounting-fx-'));
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(async () => {
      await app?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('a dollar invoice charged in euros scores by the rate of the charge date, named in the reason', async () => {
      const caller = await createCaller(app);
      const card = await cardAccount(app, caller);
      // $100.00 on Thursday 2026-11-26; charged €96.56 on Sunday the 29th: $1 = €1/1.0512 on the
      // 27th (the Friday table) plus a 1.5 % card fee. The bundled table's 1.16 puts it 12 % off.
      const tx = await cardTransaction(app, caller, card, '2026-11-29', '-9656', 'HARBOR BOOKS SEATTLE');
      await app.runJobs();
      const invoice = (id: string) =>
        ublReceipt({
          id,
          merchant: 'Harbor Books',
          date: '2026-11-26',
          amountMinor: 10000n,
          currency: 'USD',
        });

      const bundled = await uploadAndProcess(app, caller, invoice('FX-1'), 'fx-1.xml', 'application/xml');
      const withBundled = (await listed(app, caller.token, bundled.id)).find(
        (s) => s.transaction_id === tx.id,
      );
      assert.ok(withBundled, 'merchant, card and date still suggest it');
      assert.ok(
        withBundled.reasons.some((r) => r.includes('bundled rates of 2025-11-28')),
        withBundled.reasons.join('; '),
      );

      const file = path.join(dir, 'eurofxref-hist-90d.xml');
      writeFileSync(
        file,
        ecbFile([
          { date: '2026-11-27', rates: { USD: '1.0512', GBP: '0.8391' } },
          { date: '2026-11-26', rates: { USD: '1.0498', GBP: '0.8402' } },
          // A later table is never used for an earlier charge.
          { date: '2026-11-30', rates: { USD: '1.3000', GBP: '0.9000' } },
        ]),
      );
      await loadRatesFile(app.services.db, file, app.clock.now());
      const dated = await uploadAndProcess(app, caller, invoice('FX-2'), 'fx-2.xml', 'application/xml');
      const withDated = (await listed(app, caller.token, dated.id)).find((s) => s.transaction_id === tx.id);
      assert.ok(withDated);
      assert.ok(
        withDated.reasons.some((r) =>
          /amount within 1\.\d % after FX \(reference rates \(file eurofxref-hist-90d\.xml\) of 2026-11-27\)/.test(
            r,
          ),
        ),
        withDated.reasons.join('; '),
      );
      assert.ok(withDated.score > withBundled.score, `${withDated.score} > ${withBundled.score}`);
    });

    it('a currency in no table scores by the rate of the organization confirmed matches, with its date', async () => {
      const caller = await createCaller(app);
      const card = await cardAccount(app, caller);
      // A baht invoice confirmed against its euro charge: 1,500.00 THB = €39.90 on 2026-08-20.
      const first = await cardTransaction(app, caller, card, '2026-08-20', '-3990', 'SIAM TAILORS BANGKOK');
      await app.runJobs();
      const thb = (id: string, date: string, amountMinor: bigint) =>
        ublReceipt({ id, merchant: 'Siam Tailors', date, amountMinor, currency: 'THB' });
      const firstReceipt = await uploadAndProcess(
        app,
        caller,
        thb('TH-1', '2026-08-19', 150000n),
        't1.xml',
        'application/xml',
      );
      const before = await listed(app, caller.token, firstReceipt.id);
      const pair = before.find((s) => s.transaction_id === first.id);
      assert.ok(pair, 'suggested by merchant, card and date');
      assert.ok(
        pair.reasons.some((r) => r.includes('other currency, no rate')),
        pair.reasons.join('; '),
      );
      const confirmed = await call(
        app.baseUrl,
        'matching.suggestions.confirm',
        { id: pair.id, expectedRevision: pair.revision },
        { token: caller.token },
      );
      assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));

      // Two weeks later, 2,000.00 THB charged €53.10: within 0.2 % of the rate the first match implies.
      const second = await cardTransaction(app, caller, card, '2026-09-03', '-5310', 'SIAM TAILORS BANGKOK');
      await app.runJobs();
      const next = await uploadAndProcess(
        app,
        caller,
        thb('TH-2', '2026-09-02', 200000n),
        't2.xml',
        'application/xml',
      );
      const found = (await listed(app, caller.token, next.id)).find((s) => s.transaction_id === second.id);
      assert.ok(found);
      assert.ok(
        found.reasons.some((r) => r.includes('after FX (rate of your confirmed match of 2026-08-20)')),
        found.reasons.join('; '),
      );
      // Another organization's confirmed match is not this one's evidence.
      const stranger = await createCaller(app);
      const strangerCard = await cardAccount(app, stranger);
      const theirs = await cardTransaction(
        app,
        stranger,
        strangerCard,
        '2026-09-03',
        '-5310',
        'SIAM TAILORS BANGKOK',
      );
      await app.runJobs();
      const theirReceipt = await uploadAndProcess(
        app,
        stranger,
        thb('TH-3', '2026-09-02', 200000n),
        't3.xml',
        'application/xml',
      );
      const theirPair = (await listed(app, stranger.token, theirReceipt.id)).find(
        (s) => s.transaction_id === theirs.id,
      );
      assert.ok(theirPair);
      assert.ok(
        theirPair.reasons.some((r) => r.includes('other currency, no rate')),
        theirPair.reasons.join('; '),
      );
    });
  });
}
