// Regenerates docs/screenshots/*.png: every dashboard page, at 1280 px and (home) on a phone, and
// the contractor portal's first steps (invitation, accepted and signed in, an agreement).
// Runs a real server on a throwaway SQLite database with sample data, signs in through a
// printed sign-in link and drives /usr/bin/chromium (CHROMIUM_PATH). Usage: npx tsx scripts/screenshots.ts
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { chromium } from 'playwright-core';
import { initialize } from '../src/admin/organizations.ts';
import { loadConfig } from '../src/config.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { JOBS } from '../src/jobs/catalog.ts';
import { buildServer } from '../src/server.ts';
import { createServices } from '../src/services.ts';
import { memberSignInLinks } from '../src/sessions/member-sign-in.ts';
import { ublReceipt } from '../test/support/receipts.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'docs/screenshots');
const dataDir = mkdtempSync(path.join(tmpdir(), 'accounting-screens-'));

async function main(): Promise<void> {
  const config = loadConfig({
    ACCOUNTING_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PORT: '0',
    // The sample endpoint (localhost:9, never answering) is allowed only on a listed port.
    ACCOUNTING_WEBHOOK_LOCALHOST_PORTS: '9',
  });
  const services = await createServices(config, { logger: pino({ level: 'silent' }) });
  await migrateToLatest(services.db);
  const server = await buildServer(services);
  const base = await server.listen({ port: 0, host: '127.0.0.1' });
  config.publicUrl = base;
  const owner = await initialize(services.db.kysely, services.clock, {
    organizationName: 'Northwind Studio',
    email: 'owner@northwind.example',
  });
  let n = 0;
  const api = async (operation: string, input: Record<string, unknown>) => {
    n += 1;
    const response = await fetch(`${base}/api/v1/accounting/${operation}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${owner.apiKey}`,
        'content-type': 'application/json',
        'idempotency-key': `screens-${n}-${Date.now()}`,
      },
      body: JSON.stringify(input),
    });
    const body = (await response.json()) as { data?: Record<string, unknown>; error?: unknown };
    if (!response.ok) throw new Error(`${operation}: ${JSON.stringify(body.error)}`);
    return body.data ?? {};
  };
  // Sample data through the API, as a user would make it.
  const contractor = await api('contractors.create', {
    displayName: 'Ada Byron',
    legalName: 'Ada Byron Consulting Ltd',
    email: 'ada@byron.example',
    country: 'CA',
  });
  // Ada's work: a role, an agreement sent from a draft, hours waiting for approval.
  const role = await api('contractorOps.roles.save', {
    name: 'Design lead',
    hourlyRateMinor: '9500',
    currency: 'CAD',
    payCadence: 'monthly',
  });
  await api('contractorOps.roles.assign', {
    contractorId: contractor.id,
    expectedRevision: contractor.revision,
    jobRoleId: role.id,
  });
  const template = await api('contractors.templates.createDraft', {
    name: 'Services agreement',
    markdown:
      '# Services agreement\n\n{{contractor.legalName}} provides design services to {{organization.name}}.',
  });
  await api('contractors.agreements.send', { contractorId: contractor.id, templateId: template.id });
  await api('contractors.hours.submit', {
    contractorId: contractor.id,
    workDate: '2026-03-02',
    hours: '6.5',
    description: 'Design sprint workshop',
  });
  await api('contractors.create', {
    displayName: 'Grace Hopper',
    legalName: 'Hopper Labs',
    email: 'grace@hopper.example',
  });
  const endpoint = (await api('webhooks.endpoints.create', {
    url: 'http://localhost:9/webhooks',
    description: 'Bookkeeping sync',
    events: ['invoice.*', 'contractor.*'],
  })) as { endpoint: { id: string } };
  const party = await api('parties.create', { name: 'Contoso Ltd', email: 'ap@contoso.example' });
  const invoice = await api('invoices.create', {
    partyId: party.id,
    currency: 'CAD',
    lines: [
      { description: 'Design sprint, March', quantity: '12.5', unitAmountMinor: '15000', taxRate: '13' },
    ],
    paymentTermsDays: 30,
  });
  await api('admin.members.add', { email: 'finance@northwind.example', role: 'finance', name: 'Fin Ance' });
  // A card charge and the PayPal receipt behind it: a consolidation to review.
  const account = await api('accounts.create', {
    name: 'Company card',
    kind: 'credit_card',
    currency: 'EUR',
  });
  const card = await api('cards.create', {
    accountId: account.id,
    holderMemberId: owner.memberId,
    lastFour: '4242',
    brand: 'Visa',
  });
  const charge = await api('transactions.create', {
    accountId: account.id,
    cardId: card.id,
    bookedDate: '2026-03-03',
    amountMinor: '-4990',
    description: 'PAYPAL *SPOTIFY 4029357733',
  });
  const uploaded = (await api('receipts.upload', {
    fileName: 'paypal.xml',
    mediaType: 'application/xml',
    contentBase64: ublReceipt({
      id: 'PP-1',
      merchant: 'PayPal Europe (Spotify)',
      date: '2026-03-02',
      amountMinor: 4990n,
    }).toString('base64'),
  })) as { item: { id: string } };
  for (const job of JOBS) while ((await job.run(services)) > 0);
  const receipt = await api('inbox.get', { id: uploaded.item.id });

  const [link] = await memberSignInLinks(services, config.sessions, base, {
    email: 'owner@northwind.example',
    mail: false,
  });
  if (!link) throw new Error('no sign-in link');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    mkdirSync(out, { recursive: true });
    const shoot = async (name: string, url: string) => {
      await page.goto(url);
      await page.screenshot({ path: path.join(out, `${name}.png`), fullPage: true });
    };
    await shoot('sign-in', `${base}/dashboard/sign-in`);
    await page.goto(link.url);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/dashboard`);
    await shoot('home', `${base}/dashboard`);
    await shoot('webhooks', `${base}/dashboard/webhooks`);
    await shoot('webhook-endpoint', `${base}/dashboard/webhooks/${endpoint.endpoint.id}`);
    await shoot('invoices', `${base}/dashboard/invoices`);
    await shoot('invoice', `${base}/dashboard/invoices/${String(invoice.id)}`);
    await shoot('contractors', `${base}/dashboard/contractors`);
    await shoot('contractor', `${base}/dashboard/contractors/${String(contractor.id)}`);
    await shoot('contractor-roles', `${base}/dashboard/contractors/roles`);
    await shoot('agreement-templates', `${base}/dashboard/contractors/templates`);
    // A refused form drawn again in place: the typed values kept, the message beside its field.
    await page.goto(`${base}/dashboard/contractors/roles`);
    await page.locator('#role-name-new').fill('Illustrator');
    await page.locator('#role-rate-new').fill('forty');
    await page.locator('#role-currency-new').fill('EUR');
    await page.getByRole('button', { name: 'Add role' }).click();
    await page.locator('#role-rate-new-error').waitFor();
    await page.screenshot({ path: path.join(out, 'refused-form.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await shoot('contractor-phone', `${base}/dashboard/contractors/${String(contractor.id)}`);
    await page.setViewportSize({ width: 1280, height: 860 });
    await shoot('transactions', `${base}/dashboard/transactions`);
    await shoot('accounts', `${base}/dashboard/accounts`);
    await shoot('not-found', `${base}/dashboard/no-such-page`);
    await shoot('admin', `${base}/dashboard/admin`);
    await shoot('admin-audit', `${base}/dashboard/admin/audit`);
    await shoot('admin-organization', `${base}/dashboard/admin/organization`);
    await shoot('ledger', `${base}/dashboard/entries?status=all`);
    await shoot('sessions', `${base}/dashboard/sessions`);
    // The contractor portal: Ada accepts her invitation (which signs her in) and reads an agreement.
    // The role assigned above changed the contractor's revision: invite with the current one.
    const invited = await api('contractors.get', { id: contractor.id });
    await api('contractors.invite', { id: contractor.id, expectedRevision: invited.revision });
    const invitation = await api('contractors.invitations.link', { contractorId: contractor.id });
    const template = await api('contractors.templates.createDraft', {
      name: 'Services agreement',
      markdown: [
        '# Services agreement',
        '',
        'Between **{{organization.name}}** and _{{contractor.legalName}}_, dated {{date}}.',
        '',
        '## Services',
        '',
        '- Design sprints, as agreed in writing',
        '- Reviews of the *design system*',
        '',
        '## Payment',
        '',
        '1. Hours are submitted in the portal and approved monthly.',
        '2. Payment within 30 days; questions to [accounts](mailto:accounts@northwind.example).',
      ].join('\n'),
    });
    const agreement = await api('contractors.agreements.send', {
      contractorId: contractor.id,
      templateId: template.id,
    });
    const portal = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    await portal.goto(String(invitation.url));
    await portal.screenshot({ path: path.join(out, 'portal-invitation.png'), fullPage: true });
    await portal.getByRole('button', { name: 'Accept' }).click();
    await portal.getByRole('heading', { name: 'My hours' }).waitFor();
    await portal.screenshot({ path: path.join(out, 'portal-hours.png'), fullPage: true });
    await portal.goto(`${base}/portal/agreements/${String(agreement.id)}`);
    await portal.screenshot({ path: path.join(out, 'portal-agreement.png'), fullPage: true });
    await portal.setViewportSize({ width: 390, height: 844 });
    await portal.screenshot({ path: path.join(out, 'portal-agreement-phone.png'), fullPage: true });
    await shoot('receipts', `${base}/dashboard/receipts`);
    await shoot('receipt', `${base}/dashboard/receipts/${uploaded.item.id}`);
    await shoot('receipt-consolidate', `${base}/dashboard/receipts/${String(receipt.id)}`);
    // A correction refused beside its input, the typed values kept (inbox.confirm).
    await page.goto(`${base}/dashboard/receipts/${uploaded.item.id}`);
    const correct = page.locator('details#correct');
    if ((await correct.getAttribute('open')) === null) await correct.locator('summary').click();
    await page.getByLabel('Total to pay').fill('12,50,0');
    await page.getByRole('button', { name: /Save the corrections|Confirm and post to the books/ }).click();
    await page.locator('#f-fix-totalMinor-error').waitFor();
    await page.screenshot({ path: path.join(out, 'receipt-correction-refused.png'), fullPage: true });
    await shoot(
      'consolidation-review',
      `${base}/dashboard/consolidations?receiptEntryId=${String(receipt.entry_id)}&targetEntryId=${String(charge.entry_id)}`,
    );
    await page.setViewportSize({ width: 390, height: 844 });
    await shoot('home-phone', `${base}/dashboard`);
    await shoot('accounts-phone', `${base}/dashboard/accounts`);
  } finally {
    await browser.close();
    await server.close();
    await services.db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  process.stdout.write(`wrote ${out}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(1);
});
