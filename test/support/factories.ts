import {
  addMember,
  createApiKey,
  createOrganization,
  revokeApiKey,
  setMemberStatus,
} from '../../src/admin/organizations.ts';
import { ACCOUNTING_SCOPES, ALL_SCOPES, ROLES, type Role, type Scope } from '../../src/contract/access.ts';
import { findOperation, OPERATIONS } from '../../src/operations/catalog.ts';
import type { AnyOperation } from '../../src/operations/define.ts';
import type { Caller, TestApp } from './app.ts';
import { call, freshKey } from './http.ts';
import { ublReceipt } from './receipts.ts';

/**
 * Factories shared by the catalog-driven tests: organizations, members and keys in every state the
 * security tests need, and records made through the API itself so id-taking operations can be
 * called on a record that really exists (in another organization).
 */

let sequence = 0;
/** Unique within the test process: emails, names. */
export function unique(prefix: string): string {
  sequence += 1;
  return `${prefix}-${process.pid}-${sequence}-${Math.random().toString(36).slice(2, 8)}`;
}

/** A member of an existing organization with one key. */
export async function addCaller(
  app: TestApp,
  organizationId: string,
  options: { role?: Role; scopes?: readonly Scope[] } = {},
): Promise<Caller> {
  const { kysely } = app.services.db;
  const role = options.role ?? 'admin';
  const member = await addMember(kysely, app.clock, {
    organizationId,
    email: `${unique(role)}@example.com`,
    role,
  });
  const key = await createApiKey(kysely, app.clock, {
    organizationId,
    memberId: member.id,
    scopes: options.scopes ?? ACCOUNTING_SCOPES,
  });
  return { organizationId, memberId: member.id, token: key.token, role };
}

export async function newOrganization(app: TestApp, name = 'Test org'): Promise<string> {
  return (await createOrganization(app.services.db.kysely, app.clock, { name })).id;
}

/** Every credential state the catalog-wide security tests use, in one organization (plus a second). */
export interface SecurityCallers {
  organizationId: string;
  otherOrganizationId: string;
  /** Active member with every scope there is, per role. */
  full: Record<Role, Caller>;
  /** Per role, a key with every scope except the named one. */
  withoutScope: Record<Role, Record<Scope, Caller>>;
  suspended: Caller;
  removed: Caller;
  revokedToken: string;
}

export async function securityCallers(app: TestApp): Promise<SecurityCallers> {
  const { kysely } = app.services.db;
  const organizationId = await newOrganization(app, 'Security org');
  const otherOrganizationId = await newOrganization(app, 'Other org');
  const full = {} as Record<Role, Caller>;
  const withoutScope = {} as Record<Role, Record<Scope, Caller>>;
  for (const role of ROLES) {
    full[role] = await addCaller(app, organizationId, { role, scopes: ALL_SCOPES });
    withoutScope[role] = {} as Record<Scope, Caller>;
    for (const scope of ALL_SCOPES) {
      const scopes = ALL_SCOPES.filter((s) => s !== scope);
      const key = await createApiKey(kysely, app.clock, {
        organizationId,
        memberId: full[role].memberId,
        scopes,
      });
      withoutScope[role][scope] = { ...full[role], token: key.token };
    }
  }
  const suspended = await addCaller(app, organizationId, { scopes: ALL_SCOPES });
  await setMemberStatus(kysely, app.clock, {
    organizationId,
    memberId: suspended.memberId,
    status: 'suspended',
  });
  const removed = await addCaller(app, organizationId, { scopes: ALL_SCOPES });
  await setMemberStatus(kysely, app.clock, { organizationId, memberId: removed.memberId, status: 'removed' });
  const revoked = await createApiKey(kysely, app.clock, {
    organizationId,
    memberId: full.admin.memberId,
    scopes: ALL_SCOPES,
  });
  await revokeApiKey(kysely, app.clock, { organizationId, keyId: revoked.id });
  return {
    organizationId,
    otherOrganizationId,
    full,
    withoutScope,
    suspended,
    removed,
    revokedToken: revoked.token,
  };
}

/** A record that exists: its id and, when the record has one, its revision. */
export interface MadeRecord {
  id: string;
  revision: number | undefined;
}

export type RecordFactory = (app: TestApp, caller: Caller) => Promise<MadeRecord>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `{id, revision}` of a create result: the record itself or the one record inside it (`{endpoint, secret}`). */
export function recordOf(data: unknown): MadeRecord | undefined {
  const candidates = isObject(data) ? [data, ...Object.values(data)] : [];
  for (const candidate of candidates) {
    if (isObject(candidate) && typeof candidate.id === 'string') {
      return {
        id: candidate.id,
        revision: typeof candidate.revision === 'number' ? candidate.revision : undefined,
      };
    }
  }
  return undefined;
}

/** Calls an operation as `caller` and returns the record it made, failing loudly otherwise. */
export async function makeThrough(
  app: TestApp,
  caller: Caller,
  operation: string,
  input: Record<string, unknown>,
): Promise<MadeRecord> {
  const res = await call(app.baseUrl, operation, input, { token: caller.token });
  const record = res.status === 200 ? recordOf(res.data) : undefined;
  if (!record) {
    throw new Error(`factory ${operation} failed: ${res.status} ${JSON.stringify(res.body).slice(0, 400)}`);
  }
  return record;
}

/** A contractor with a job role: hours and payouts need the role's rate and currency. */
export async function contractorWithRole(app: TestApp, caller: Caller): Promise<MadeRecord> {
  const role = await makeThrough(app, caller, 'contractorOps.roles.save', {
    name: unique('Role'),
    hourlyRateMinor: '5000',
    currency: 'CAD',
    payCadence: 'monthly',
  });
  return makeThrough(app, caller, 'contractors.create', contractorInput({ jobRoleId: role.id }));
}

export function contractorInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const name = unique('Contractor');
  return { displayName: name, legalName: `${name} Ltd`, email: `${unique('c')}@example.com`, ...overrides };
}

/**
 * Resources whose records need more than their `<resource>.create` example. Keyed by the
 * operation-name prefix that addresses them (`contractors.get` -> `contractors`).
 */
export const RECORD_FACTORIES: Record<string, RecordFactory> = {
  contractors: (app, caller) => makeThrough(app, caller, 'contractors.create', contractorInput()),
  /** An event: any change records one (here contractor.created); the newest is returned. */
  'webhooks.events': async (app, caller) => {
    await makeThrough(app, caller, 'contractors.create', contractorInput());
    const res = await call(app.baseUrl, 'webhooks.events.list', { limit: 1 }, { token: caller.token });
    const first = (res.data as { items?: Array<{ id?: unknown }> } | undefined)?.items?.[0];
    if (typeof first?.id !== 'string') throw new Error(`no event to return: ${JSON.stringify(res.body)}`);
    return { id: first.id, revision: undefined };
  },
  /** A delivery: an endpoint that wants contractor events, then a contractor.created event fanned out to it. */
  'webhooks.deliveries': async (app, caller) => {
    await makeThrough(app, caller, 'webhooks.endpoints.create', {
      ...exampleOf(requireOperation('webhooks.endpoints.create')),
      events: ['contractor.*'],
    });
    await makeThrough(app, caller, 'contractors.create', contractorInput());
    const res = await call(app.baseUrl, 'webhooks.deliveries.list', { limit: 1 }, { token: caller.token });
    const first = (res.data as { items?: Array<{ id?: unknown }> } | undefined)?.items?.[0];
    if (typeof first?.id !== 'string') throw new Error(`no delivery to return: ${JSON.stringify(res.body)}`);
    return { id: first.id, revision: undefined };
  },
  'contractors.invitations': async (app, caller) => {
    const contractor = await makeThrough(app, caller, 'contractors.create', contractorInput());
    return makeThrough(app, caller, 'contractors.invite', {
      id: contractor.id,
      expectedRevision: contractor.revision,
    });
  },
  // Role names are unique per organization, so each record gets its own name.
  'contractorOps.roles': (app, caller) =>
    makeThrough(app, caller, 'contractorOps.roles.save', {
      name: unique('Role'),
      hourlyRateMinor: '7500',
      currency: 'CAD',
      payCadence: 'biweekly',
    }),
  'contractors.templates': (app, caller) => makeWithExample(app, caller, 'contractors.templates.createDraft'),
  /** Hours of a contractor with a role (the rate prices them). */
  'contractors.hours': async (app, caller) => {
    const contractorId = (await contractorWithRole(app, caller)).id;
    return makeThrough(app, caller, 'contractors.hours.submit', {
      contractorId,
      workDate: '2026-09-21',
      hours: '1.50',
      description: 'Work',
    });
  },
  'contractors.payouts': async (app, caller) => {
    const contractorId = (await contractorWithRole(app, caller)).id;
    return makeThrough(app, caller, 'contractors.payouts.create', {
      contractorId,
      periodEnd: '2026-09-30',
      fixedAmounts: [{ description: 'Fee', amountMinor: '1000' }],
    });
  },
  'contractors.agreements': async (app, caller) => {
    const contractorId = (await makeThrough(app, caller, 'contractors.create', contractorInput())).id;
    const templateId = (await makeWithExample(app, caller, 'contractors.templates.createDraft')).id;
    return makeThrough(app, caller, 'contractors.agreements.send', { contractorId, templateId });
  },
  // Books: a card needs an account and a holder (the caller); an entry is posted by a transaction.
  cards: async (app, caller) => {
    const account = await makeWithExample(app, caller, 'accounts.create');
    return makeWithExample(app, caller, 'cards.create', {
      accountId: account.id,
      holderMemberId: caller.memberId,
    });
  },
  entries: async (app, caller) => {
    const account = await makeWithExample(app, caller, 'accounts.create');
    const res = await call(
      app.baseUrl,
      'transactions.create',
      { ...exampleOf(requireOperation('transactions.create')), accountId: account.id },
      { token: caller.token },
    );
    const entryId = (res.data as { entry_id?: unknown } | undefined)?.entry_id;
    if (typeof entryId !== 'string') throw new Error(`no entry to return: ${JSON.stringify(res.body)}`);
    const entry = await call(app.baseUrl, 'entries.get', { id: entryId }, { token: caller.token });
    return { id: entryId, revision: (entry.data as { revision?: number } | undefined)?.revision };
  },
  // Run at once, so its file exists (entries.exports.download answers 404 before).
  'entries.exports': async (app, caller) => {
    const job = await makeWithExample(app, caller, 'entries.export');
    await app.runJobs();
    return job;
  },
  'transactions.imports': async (app, caller) => {
    const account = await makeWithExample(app, caller, 'accounts.create');
    return makeWithExample(app, caller, 'transactions.imports.create', { accountId: account.id });
  },
  /** A letter: company mail has no `create`; a scan is uploaded. */
  'mail.items': (app, caller) => makeWithExample(app, caller, 'mail.items.upload'),
  // A second member of the caller's organization (never the caller, never its last admin).
  'admin.members': (app, caller) =>
    makeWithExample(app, caller, 'admin.members.add', { email: `${unique('member')}@example.com` }),
  // A receipt's original: the stored file behind a new inbox item.
  'receipts.originals': async (app, caller) => {
    const item = await RECORD_FACTORIES.inbox?.(app, caller);
    const res = await call(app.baseUrl, 'inbox.get', { id: item?.id ?? '' }, { token: caller.token });
    const fileId = (res.data as { file_id?: unknown } | undefined)?.file_id;
    if (typeof fileId !== 'string') throw new Error(`no file id: ${JSON.stringify(res.body)}`);
    return { id: fileId, revision: undefined };
  },
  // Receipts: an inbox item is an upload of a small UBL invoice of its own (distinct bytes).
  inbox: (app, caller) =>
    makeThrough(app, caller, 'receipts.upload', {
      fileName: 'receipt.xml',
      mediaType: 'application/xml',
      contentBase64: ublReceipt({
        id: unique('R'),
        merchant: 'Blue Bottle Coffee',
        date: '2026-01-15',
        amountMinor: 1190n,
      }).toString('base64'),
    }),
  /** A suggestion: a card transaction and a receipt of the same amount, read by the extraction job. */
  'matching.suggestions': async (app, caller) => {
    const account = await makeThrough(app, caller, 'accounts.create', {
      name: 'Card',
      kind: 'credit_card',
      currency: 'EUR',
    });
    await makeThrough(app, caller, 'transactions.create', {
      accountId: account.id,
      bookedDate: '2026-01-16',
      amountMinor: '-1190',
      description: 'BLUE BOTTLE COFFEE',
    });
    const receipt = await RECORD_FACTORIES.inbox?.(app, caller);
    await app.runJobs();
    const res = await call(
      app.baseUrl,
      'matching.suggestions.list',
      { receiptId: receipt?.id ?? '' },
      { token: caller.token },
    );
    const first = (res.data as { items?: Array<{ id?: unknown; revision?: unknown }> } | undefined)
      ?.items?.[0];
    if (typeof first?.id !== 'string')
      throw new Error(`no suggestion to return: ${JSON.stringify(res.body)}`);
    return { id: first.id, revision: typeof first.revision === 'number' ? first.revision : undefined };
  },
  /** A category of the default chart (the chart is seeded on first read). */
  categories: async (app, caller) => {
    const res = await call(app.baseUrl, 'categories.list', { limit: 1 }, { token: caller.token });
    const first = (res.data as { items?: Array<{ id?: unknown; revision?: unknown }> } | undefined)
      ?.items?.[0];
    if (typeof first?.id !== 'string') throw new Error(`no category to return: ${JSON.stringify(res.body)}`);
    return { id: first.id, revision: typeof first.revision === 'number' ? first.revision : undefined };
  },
};

function requireOperation(name: string): AnyOperation {
  const operation = findOperation(name);
  if (!operation) throw new Error(`no operation ${name}`);
  return operation;
}

/** Calls an operation with its own example input, with some fields replaced. */
export function makeWithExample(
  app: TestApp,
  caller: Caller,
  operation: string,
  overrides: Record<string, unknown> = {},
): Promise<MadeRecord> {
  return makeThrough(app, caller, operation, { ...exampleOf(requireOperation(operation)), ...overrides });
}

/**
 * Operations whose `id` is not a record of the prefix their name suggests, mapped to the right
 * resource (`contractors.email.update` would find `contractors` by itself).
 */
export const ID_RESOURCE_OVERRIDES: Record<string, string> = {
  // A plan is a schedule row: its id is read by invoices.schedules.get.
  'invoices.paymentPlans.reschedule': 'invoices.schedules',
};

/** Input fields other than `id` that name a record, and the resource they name. */
export const ID_FIELD_RESOURCES: Record<string, string> = {
  contractorId: 'contractors',
  partyId: 'parties',
  jobRoleId: 'contractorOps.roles',
  invoiceId: 'invoices',
  accountId: 'accounts',
  receiptId: 'inbox',
  transactionId: 'transactions',
  receiptEntryId: 'entries',
  targetEntryId: 'entries',
};

/**
 * The factory of a resource: an explicit one, else its `<resource>.create` operation with the
 * example input, after making the records its required id fields name (an invoice's party).
 */
export function factoryFor(resource: string): RecordFactory | undefined {
  const explicit = RECORD_FACTORIES[resource];
  if (explicit) return explicit;
  const create = findOperation(`${resource}.create`);
  if (!create || !isObject(create.example)) return undefined;
  return async (app, caller) => {
    const references: Record<string, unknown> = {};
    for (const { field, resource: referenced } of idFields(create)) {
      const make = field !== 'id' && referenced ? factoryFor(referenced) : undefined;
      if (make) references[field] = (await make(app, caller)).id;
    }
    return makeWithExample(app, caller, create.name, references);
  };
}

/** The resource an operation's `id` refers to: the longest name prefix that has a factory. */
export function resourceOfId(operation: AnyOperation): string | undefined {
  const override = ID_RESOURCE_OVERRIDES[operation.name];
  if (override) return override;
  const parts = operation.name.split('.').slice(0, -1);
  for (let length = parts.length; length > 0; length -= 1) {
    const prefix = parts.slice(0, length).join('.');
    if (factoryFor(prefix)) return prefix;
  }
  return undefined;
}

export function inputProperties(operation: AnyOperation): Record<string, unknown> {
  const properties = (operation.input as { properties?: unknown }).properties;
  return isObject(properties) ? properties : {};
}

/** Each record-naming input field of the operation with the resource it names (when known). */
export function idFields(operation: AnyOperation): Array<{ field: string; resource: string | undefined }> {
  const properties = inputProperties(operation);
  const fields: Array<{ field: string; resource: string | undefined }> = [];
  if ('id' in properties) fields.push({ field: 'id', resource: resourceOfId(operation) });
  // Optional id fields are filters or later references: an unknown one may legitimately match nothing.
  const required = (operation.input as { required?: unknown }).required;
  for (const [field, resource] of Object.entries(ID_FIELD_RESOURCES)) {
    if (field in properties && Array.isArray(required) && required.includes(field)) {
      fields.push({ field, resource: factoryFor(resource) ? resource : undefined });
    }
  }
  return fields;
}

/** The example input with a fresh idempotency key in place of the example's, so repeats take effect. */
export function exampleOf(operation: AnyOperation): Record<string, unknown> {
  if (!isObject(operation.example)) return {};
  const input = { ...operation.example };
  if (input.idempotencyKey !== undefined) input.idempotencyKey = freshKey();
  return input;
}

export const dashboardOnly = (operation: AnyOperation): boolean => operation.access.roles === 'dashboard';

/** Operations an API credential can reach at all. */
export const API_OPERATIONS = OPERATIONS.filter((operation) => !dashboardOnly(operation));
