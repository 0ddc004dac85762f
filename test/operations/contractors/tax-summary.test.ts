import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Caller, createCaller, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call } from '../../support/http.ts';
import { assertError, fixedPayout, makeContractor, makeRole, ok, startWithMembers } from './helpers.ts';

interface Item {
  legal_name: string;
  currency: string;
  fees_paid_minor: string;
  payout_count: number;
  slips: Array<{ form: string; box: string | null }>;
  withholding_minor: string | null;
  notes: string[];
  identity_confirmed: boolean | null;
}

for (const dialect of DIALECTS) {
  describe(`contractors.taxSummary (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let finance: Caller;
    const cad = { hourlyRateMinor: '5000', currency: 'CAD', payCadence: 'monthly' };
    const usd = { hourlyRateMinor: '5000', currency: 'USD', payCadence: 'monthly' };

    /** A contractor with a reviewed profile paid `amounts` (each a payout marked paid on `paidOn`). */
    async function paid(
      legalName: string,
      role: Record<string, unknown>,
      profile: { residency: string; servicesInCanada: boolean } | null,
      amounts: string[],
      paidOn = '2025-06-30',
    ) {
      const r = await makeRole(app, admin, role);
      const c = await makeContractor(app, admin, { legalName, jobRoleId: r.id });
      if (profile) {
        await ok(app, finance, 'contractors.taxProfile.review', {
          id: c.id,
          expectedRevision: 1,
          identityConfirmed: true,
          ...profile,
        });
      }
      for (const amountMinor of amounts) await fixedPayout(app, finance, c.id, { amountMinor, paidOn });
      return c;
    }

    before(async () => {
      ({ app, admin, finance } = await startWithMembers(dialect));
      const ca = { residency: 'CA', servicesInCanada: true };
      const us = { residency: 'US', servicesInCanada: false };
      await paid('A CA at 500.00', cad, ca, ['30000', '20000']);
      await paid('B CA at 500.01', cad, ca, ['50001']);
      await paid('C US at 599.99', usd, us, ['59999']);
      await paid('D US at 600.00', usd, us, ['40000', '20000']);
      await paid('E GB in Canada', cad, { residency: 'GB', servicesInCanada: true }, ['100001']);
      await paid('F GB abroad', cad, { residency: 'GB', servicesInCanada: false }, ['900000']);
      await paid('G not reviewed', cad, null, ['70000']);
      await paid('H US 2026 at 600.00', usd, us, ['60000'], '2026-03-01');
      // Cash basis: a December period paid on 2 January counts in the new year; unpaid counts never.
      const late = await paid('I CA paid in January', cad, ca, []);
      await fixedPayout(app, finance, late.id, {
        amountMinor: '80000',
        periodEnd: '2025-12-31',
        paidOn: '2026-01-02',
      });
      await fixedPayout(app, finance, late.id, { amountMinor: '99999', periodEnd: '2025-11-30' });
    });
    after(() => app.close());

    const summary = async (year: number, who = finance) => {
      const res = await call(app.baseUrl, 'contractors.taxSummary', { year }, { token: who.token });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.data as { items: Item[]; csv: string };
    };
    const byName = (items: Item[], name: string) => {
      const item = items.find((i) => i.legal_name === name);
      assert.ok(item, `no item for ${name}`);
      return item;
    };
    const forms = (item: Item) => item.slips.map((s) => (s.box === null ? s.form : `${s.form}/${s.box}`));

    it('T4A box 048 only above CAD 500.00: 500.00 none, 500.01 yes', async () => {
      const { items } = await summary(2025);
      const a = byName(items, 'A CA at 500.00');
      assert.deepEqual([a.fees_paid_minor, a.payout_count, forms(a)], ['50000', 2, []]);
      assert.deepEqual(forms(byName(items, 'B CA at 500.01')), ['T4A/048']);
    });

    it('1099-NEC at USD 600.00 and above in 2025 (599.99 none), USD 2,000 from 2026', async () => {
      const { items } = await summary(2025);
      assert.deepEqual(forms(byName(items, 'C US at 599.99')), []);
      const d = byName(items, 'D US at 600.00');
      assert.deepEqual([d.fees_paid_minor, d.currency, forms(d)], ['60000', 'USD', ['1099-NEC/1']]);
      const next = await summary(2026);
      assert.deepEqual(forms(byName(next.items, 'H US 2026 at 600.00')), []);
    });

    it('non-resident rendering services in Canada: T4A-NR and 15 % Regulation 105 withholding', async () => {
      const { items } = await summary(2025);
      const e = byName(items, 'E GB in Canada');
      assert.deepEqual(forms(e), ['T4A-NR']);
      assert.equal(e.withholding_minor, '15000'); // 15 % of 1000.01 = 150.0015 -> 150.00
      assert.ok(e.notes.some((n) => n.includes('R105')));
      const f = byName(items, 'F GB abroad');
      assert.deepEqual([forms(f), f.withholding_minor], [[], null]);
      assert.equal(f.identity_confirmed, true);
      const g = byName(items, 'G not reviewed');
      assert.deepEqual(forms(g), []);
      assert.equal(g.identity_confirmed, null, 'unknown until reviewed, not false');
      assert.match(g.notes.join(' '), /not reviewed/);
    });

    it('counts payouts by payment date (cash basis), never unpaid ones', async () => {
      const y2025 = await summary(2025);
      assert.equal(
        y2025.items.find((i) => i.legal_name === 'I CA paid in January'),
        undefined,
      );
      const y2026 = await summary(2026);
      const i = byName(y2026.items, 'I CA paid in January');
      assert.deepEqual([i.fees_paid_minor, i.payout_count, forms(i)], ['80000', 1, ['T4A/048']]);
    });

    it('exports CSV (also as text/csv over HTTP), keeps organizations apart, refuses bad years', async () => {
      const { csv, items } = await summary(2025);
      const lines = csv.trimEnd().split('\r\n');
      assert.equal(
        lines[0],
        'year,contractor_id,legal_name,residency,services_in_canada,currency,fees_paid_minor,payout_count,slips,withholding_minor,notes',
      );
      assert.equal(lines.length, items.length + 1);
      assert.ok(lines.some((l) => l.includes(',B CA at 500.01,CA,true,CAD,50001,1,T4A box 048,,')));
      const res = await fetch(`${app.baseUrl}/api/v1/accounting/contractors.taxSummary?year=2025`, {
        headers: { authorization: `Bearer ${finance.token}`, accept: 'text/csv' },
      });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/csv/);
      assert.equal(await res.text(), csv);
      const stranger = await createCaller(app);
      assert.deepEqual((await summary(2025, stranger)).items, []);
      for (const year of [1999, 2101, '2025']) {
        assertError(
          await call(app.baseUrl, 'contractors.taxSummary', { year }, { token: finance.token }),
          400,
          'invalid_input',
          'year',
        );
      }
    });
  });
}
