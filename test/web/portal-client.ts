import assert from 'node:assert/strict';
import { getPage, linkOf, submitAccept } from '../invitations/helpers.ts';
import { ok } from '../operations/contractors/helpers.ts';
import type { Caller, TestApp } from '../support/app.ts';
import type { TestSmtpServer } from '../support/smtp.ts';
import { PageClient } from './dashboard-client.ts';

export interface Joined {
  id: string;
  email: string;
  revision: number;
}

/** A contractor with a role who was invited and accepted through the invitation page. */
export async function joinedContractor(app: TestApp, admin: Caller, name: string): Promise<Joined> {
  const role = await ok(app, admin, 'contractorOps.roles.save', {
    name: `Role of ${name}`,
    hourlyRateMinor: '4000',
    currency: 'CAD',
    payCadence: 'monthly',
  });
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${Math.random().toString(36).slice(2, 8)}@example.com`;
  const c = await ok(app, admin, 'contractors.create', {
    displayName: name,
    legalName: `${name} Legal`,
    email,
    jobRoleId: role.id,
  });
  await ok(app, admin, 'contractors.invite', { id: c.id, expectedRevision: c.revision });
  const link = await linkOf(app, admin, c.id);
  const accepted = await submitAccept(link, (await getPage(link)).html);
  assert.equal(accepted.status, 303, accepted.html);
  const fresh = await ok(app, admin, 'contractors.get', { id: c.id });
  return { id: c.id, email, revision: fresh.revision };
}

export function portalLinkIn(text: string): string {
  const match = /(http:\/\/\S+\/portal\/sign-in\/link\/[A-Za-z0-9_-]{43})/.exec(text);
  assert.ok(match?.[1], `a portal sign-in link in: ${text}`);
  return match[1];
}

/** A cookie-keeping client signed in to the portal from the link e-mailed to a real SMTP peer. */
export async function portalClient(app: TestApp, smtp: TestSmtpServer, email: string): Promise<PageClient> {
  const client = new PageClient(app);
  const before = smtp.messages.length;
  const asked = await client.post('/portal/sign-in', { email });
  assert.equal(asked.status, 200);
  const message = await smtp.waitFor(
    (m) => smtp.messages.indexOf(m) >= before && JSON.stringify(m.to ?? '').includes(email),
  );
  const path = new URL(portalLinkIn(message.text ?? '')).pathname;
  assert.equal((await client.get(path)).status, 200);
  const done = await client.post(path, {});
  assert.equal(done.status, 303, await done.text());
  assert.match(client.cookie, /^acct_contractor=/);
  return client;
}
