import { type Kysely, type RawBuilder, type Selectable, sql, type Updateable } from 'kysely';
import { AppError, notFound, revisionConflict } from '../../contract/errors.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Database } from '../../db/schema.ts';
import type { ContractorsTable, TemplateKind } from '../../db/tables/contractors.ts';
import { sha256Hex } from '../../lib/canonical-json.ts';
import { newId } from '../../lib/ids.ts';
import type { OperationContext } from '../context.ts';
import { type Template, toTemplate } from './schema.ts';

/**
 * Contractors of one organization (never any other), aliased `c`, with the status of their latest
 * invitation as it stands at `now` (`open`, `expired`, `revoked`, ...) for `portal_status`.
 */
export function selectContractors(db: Kysely<Database>, organizationId: string, now: Date) {
  return db
    .selectFrom('contractors as c')
    .selectAll('c')
    .select(
      sql<
        string | null
      >`(select case when ci.status = 'open' and ci.expires_at <= ${now.toISOString()} then 'expired' else ci.status end from contractor_invitations ci where ci.contractor_id = c.id order by ci.created_at desc, ci.id desc limit 1)`.as(
        'latest_invitation_status',
      ),
    )
    .where('c.organization_id', '=', organizationId);
}

/**
 * The ids of one offset page of an organization's contractors, newest first, narrowed by
 * `filters`: read from the (organization_id, created_at, id) index alone, so the caller computes
 * its columns, joins and per-row subqueries for the page's rows only (`c.id in (...)`); computed
 * per skipped row, an offset of 900,000 evaluated them 900,000 times (decision 267). With
 * `newest`, only that many of the newest contractors are looked at (a one- or two-character name
 * search, decision 265): one walk down the index that stops at the window's end.
 */
export function contractorPageIds(
  db: Kysely<Database>,
  organizationId: string,
  page: {
    limit: number;
    offset: number;
    filters?: ReadonlyArray<RawBuilder<boolean>>;
    newest?: number | undefined;
  },
) {
  const all = db.selectFrom('contractors as c');
  const source =
    page.newest === undefined
      ? all
      : // The same columns under the same alias, so `filters` read the window as they read the table.
        (db.selectFrom(
          db
            .selectFrom('contractors')
            .selectAll()
            .where('organization_id', '=', organizationId)
            .orderBy('created_at', 'desc')
            .orderBy('id', 'desc')
            .limit(page.newest)
            .as('c'),
        ) as unknown as typeof all);
  let ids = source.select('c.id').where('c.organization_id', '=', organizationId);
  for (const filter of page.filters ?? []) ids = ids.where(filter);
  return ids.orderBy('c.created_at', 'desc').orderBy('c.id', 'desc').limit(page.limit).offset(page.offset);
}

/**
 * Hours still owed: submitted (awaiting review) or approved (awaiting a payout's payment).
 * Rejected hours are owed nothing; paid hours are settled.
 */
export const UNPAID_HOURS = ['submitted', 'approved'] as const;

/** What a contractor is still owed: pending (unpaid) hours and unpaid payments. */
export interface UnpaidSummary {
  pendingHoursHundredths: bigint;
  unpaidPayments: number;
}

export async function unpaidSummary(
  db: Kysely<Database>,
  organizationId: string,
  contractorId: string,
): Promise<UnpaidSummary> {
  const hours = await db
    .selectFrom('contractor_hours')
    .select((eb) => eb.fn.sum<string | number | null>('hours_hundredths').as('total'))
    .where('organization_id', '=', organizationId)
    .where('contractor_id', '=', contractorId)
    .where('status', 'in', UNPAID_HOURS)
    .executeTakeFirst();
  const payments = await db
    .selectFrom('contractor_payments')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('contractor_id', '=', contractorId)
    .where('status', '=', 'unpaid')
    .executeTakeFirst();
  return {
    pendingHoursHundredths: BigInt(hours?.total ?? 0),
    unpaidPayments: Number(payments?.n ?? 0),
  };
}

/** Hundredths of an hour as a decimal string with two fraction digits: 725n -> "7.25". */
export function formatHours(hundredths: bigint): string {
  const digits = hundredths.toString().padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

export type ContractorRow = Selectable<ContractorsTable>;

/** The contractor of the caller's organization or a 404 naming `field`. */
export async function requireContractor(
  ctx: Pick<OperationContext, 'db' | 'organizationId'>,
  id: string,
  field = 'id',
): Promise<ContractorRow> {
  const row = await ctx.db
    .selectFrom('contractors')
    .selectAll()
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Contractor', field);
  return row;
}

/**
 * The contractor e-mail rule of contractors.email.update: 409 `email_taken` when another
 * contractor of the organization (other than `exceptId`) has `normalized`, checked before `write`
 * (so a taken address is reported before a stale revision); a unique violation in `write` (a
 * concurrent create or change took the address after the check) is the same 409. contractors.create
 * has no look-up: the unique constraint decides (`explainEmailTaken`).
 */
export async function withUniqueEmail<T>(
  ctx: Pick<OperationContext, 'db' | 'organizationId'>,
  normalized: string,
  exceptId: string | null,
  write: () => Promise<T>,
): Promise<T> {
  let taken = ctx.db
    .selectFrom('contractors')
    .select('id')
    .where('organization_id', '=', ctx.organizationId)
    .where('email_normalized', '=', normalized);
  if (exceptId !== null) taken = taken.where('id', '!=', exceptId);
  if (await taken.executeTakeFirst()) throw emailTaken();
  try {
    return await write();
  } catch (error) {
    throw explainEmailTaken(error) ?? error;
  }
}

/** The same rule for an insert written at the unit's end (`UnitOfWork.insertAtEnd`). */
export function explainEmailTaken(error: unknown): Error | undefined {
  return isUniqueViolation(error) ? emailTaken() : undefined;
}

function emailTaken(): AppError {
  return new AppError('email_taken', 'Another contractor in this organization has this email.', {
    field: 'email',
  });
}

/**
 * Compare-and-set on the revision read by `loadForChange` (a concurrent writer in between makes
 * it a 409), +1 revision, and the audit row in the same transaction.
 */
export async function applyChange(
  ctx: OperationContext,
  row: ContractorRow,
  set: Updateable<ContractorsTable>,
): Promise<number> {
  const revision = row.revision + 1;
  const result = await ctx.db
    .updateTable('contractors')
    .set({ ...set, revision, updated_at: ctx.clock.now().toISOString() })
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', row.id)
    .where('revision', '=', row.revision)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) {
    const current = await ctx.db
      .selectFrom('contractors')
      .select('revision')
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', row.id)
      .executeTakeFirst();
    if (!current) throw notFound('Contractor', 'id');
    throw revisionConflict(current.revision);
  }
  await ctx.audit({
    recordType: 'contractor',
    recordId: row.id,
    beforeRevision: row.revision,
    afterRevision: revision,
  });
  return revision;
}

/** The contractor as the read operations see it (including anything joined in by `selectContractors`). */
export async function reloadContractor(ctx: OperationContext, id: string) {
  const row = await selectContractors(ctx.db, ctx.organizationId, ctx.clock.now())
    .where('c.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Contractor', 'id');
  return row;
}

/** The contractor of the caller's organization, or 404 naming the input field. */
export async function findContractor(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
  field: string,
) {
  const contractor = await db
    .selectFrom('contractors')
    .select(['id', 'email', 'display_name', 'active', 'joined_at', 'revision'])
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  if (!contractor) throw notFound('Contractor', field);
  return contractor;
}

/** Invitations of one organization only, never any other. */
export function selectInvitations(db: Kysely<Database>, organizationId: string) {
  return db.selectFrom('contractor_invitations').selectAll().where('organization_id', '=', organizationId);
}

/** Stores a new template (content in the database), audits it and emits `agreement_template.created`. */
export async function insertTemplate(
  ctx: OperationContext,
  template: { name: string; kind: TemplateKind; mediaType: string; fileName: string | null; content: Buffer },
): Promise<Template> {
  const now = ctx.clock.now().toISOString();
  const row = {
    id: newId(),
    organization_id: ctx.organizationId,
    name: template.name,
    kind: template.kind,
    media_type: template.mediaType,
    file_name: template.fileName,
    size_bytes: template.content.length,
    sha256: sha256Hex(template.content),
    content: template.content,
    created_by: ctx.principal.memberId,
    revision: 1,
    created_at: now,
    updated_at: now,
  };
  await ctx.db.insertInto('agreement_templates').values(row).execute();
  await ctx.audit({
    recordType: 'agreement_template',
    recordId: row.id,
    beforeRevision: null,
    afterRevision: 1,
  });
  await ctx.emit({
    type: 'agreement_template.created',
    subject: { type: 'agreement_template', id: row.id },
    data: { name: row.name, kind: row.kind, mediaType: row.media_type, sizeBytes: row.size_bytes },
  });
  return toTemplate(row);
}
