import assert from 'node:assert/strict';
import type { DialectName } from '../../src/db/database.ts';
import { type Caller, startTestApp, type TestApp, type TestAppOptions } from '../support/app.ts';
import { type ApiResponse, type CallOptions, call } from '../support/http.ts';

/**
 * A test app whose public URL is its real loopback address, so the links it mails and returns
 * can be followed over HTTP (the port is only known once the server listens).
 */
export async function startInvitationApp(
  dialect: DialectName,
  options: TestAppOptions = {},
): Promise<TestApp> {
  const app = await startTestApp(dialect, options);
  app.services.config.publicUrl = app.baseUrl;
  return app;
}

let sequence = 0;

export type ContractorRecord = Record<string, unknown> & { id: string; revision: number; email: string };

export async function makeContractor(
  app: TestApp,
  caller: Caller,
  overrides: Record<string, unknown> = {},
): Promise<ContractorRecord> {
  sequence += 1;
  const res = await call(
    app.baseUrl,
    'contractors.create',
    {
      displayName: `Invitee ${sequence}`,
      legalName: `Invitee ${sequence} Legal`,
      email: `invitee-${sequence}-${Math.random().toString(36).slice(2, 8)}@example.com`,
      ...overrides,
    },
    { token: caller.token },
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.data as ContractorRecord;
}

export async function contractorRow(app: TestApp, id: string) {
  return app.services.db.kysely
    .selectFrom('contractors')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/** Invites at the contractor's current revision (read from the database). */
export async function invite(
  app: TestApp,
  caller: Caller,
  contractorId: string,
  options: CallOptions & { expectedRevision?: number } = {},
): Promise<ApiResponse> {
  const expectedRevision = options.expectedRevision ?? (await contractorRow(app, contractorId)).revision;
  return call(
    app.baseUrl,
    'contractors.invite',
    { id: contractorId, expectedRevision },
    {
      token: caller.token,
      ...options,
    },
  );
}

export type InvitationRecord = {
  id: string;
  contractor_id: string;
  email: string;
  status: string;
  expires_at: string;
  accepted_at: string | null;
  revoked_at: string | null;
  replaced_at: string | null;
  revision: number;
  created_at: string;
  updated_at: string;
};

export async function inviteOk(
  app: TestApp,
  caller: Caller,
  contractorId: string,
): Promise<InvitationRecord> {
  const res = await invite(app, caller, contractorId);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.data as unknown as InvitationRecord;
}

export async function linkOf(app: TestApp, caller: Caller, contractorId: string): Promise<string> {
  const res = await call(
    app.baseUrl,
    'contractors.invitations.link',
    { contractorId },
    { token: caller.token },
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return String(res.data.url);
}

export async function listOf(
  app: TestApp,
  caller: Caller,
  contractorId: string,
): Promise<InvitationRecord[]> {
  const res = await call(
    app.baseUrl,
    'contractors.invitations.list',
    { contractorId },
    { token: caller.token },
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.data.items as InvitationRecord[];
}

export interface Page {
  status: number;
  headers: Headers;
  html: string;
}

export async function getPage(url: string): Promise<Page> {
  const response = await fetch(url, { redirect: 'manual' });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

/**
 * Submits the page's Accept form the way a browser would: urlencoded POST to its action, with the
 * fetch metadata a browser sends for its own form (accepting signs in, so it must come from our page).
 */
export async function submitAccept(pageUrl: string, html: string): Promise<Page> {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  assert.ok(action, 'the page has an accept form');
  const target = new URL(action.replace(/&amp;/g, '&'), pageUrl);
  const response = await fetch(target, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...OWN_PAGE },
    body: '',
    redirect: 'manual',
  });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

/** What a browser sends for a form of a no-referrer page of ours (decision 310). */
export const OWN_PAGE = { origin: 'null', 'sec-fetch-site': 'same-origin' } as const;

export async function postAccept(url: string): Promise<Page> {
  const response = await fetch(`${url}/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...OWN_PAGE },
    body: '',
    redirect: 'manual',
  });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

export async function countRows(
  app: TestApp,
  table: 'contractor_invitations' | 'mail_outbox' | 'events' | 'audit_log',
  organizationId: string,
): Promise<number> {
  const row = await app.services.db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
