import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { Caller, TestApp } from '../support/app.ts';
import type { TestSmtpServer } from '../support/smtp.ts';
import { linkIn } from './dashboard-client.ts';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown }>;
}

/** Runs axe-core in the page; fails on any serious or critical violation, naming each. */
export async function assertAccessible(page: Page, label: string): Promise<void> {
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run()).violations;
  })) as AxeViolation[];
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    bad.map((v) => `${v.id}: ${v.help} (${JSON.stringify(v.nodes.slice(0, 2).map((n) => n.target))})`),
    [],
    `${label}: accessibility`,
  );
}

/** Signs `caller` in to the dashboard as a person does: the sign-in page, the e-mailed link, Sign in. */
export async function signIn(page: Page, app: TestApp, smtp: TestSmtpServer, caller: Caller): Promise<void> {
  const { email } = await app.services.db.kysely
    .selectFrom('members')
    .select('email')
    .where('id', '=', caller.memberId)
    .executeTakeFirstOrThrow();
  const count = smtp.messages.length;
  await page.goto(`${app.baseUrl}/dashboard/sign-in`);
  await page.getByLabel('Your e-mail address').fill(email);
  await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
  await page.getByText('a sign-in link is on its way').waitFor();
  const message = await smtp.waitFor(
    (m) => smtp.messages.indexOf(m) >= count && JSON.stringify(m.to).includes(email),
  );
  await page.goto(linkIn(message.text ?? ''));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'What needs attention' }).waitFor();
}

/** Fails when the page is wider than the window (it would scroll sideways on a phone). */
export async function assertNoHorizontalOverflow(page: Page, label: string): Promise<void> {
  const overflow = await page.evaluate(
    'document.documentElement.scrollWidth - document.documentElement.clientWidth',
  );
  assert.ok(Number(overflow) <= 0, `${label}: ${String(overflow)} px wider than the window`);
}
