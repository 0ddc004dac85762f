import type { Kysely } from 'kysely';
import { AppError, notFound, revisionConflict } from '../contract/errors.ts';
import type { Database } from '../db/schema.ts';
import { sha256Hex } from '../lib/canonical-json.ts';
import { newId } from '../lib/ids.ts';
import type { UnitOfWork, UnitRuntime } from '../unit/unit-of-work.ts';
import { type UnitOptions, withUnit } from '../unit/with-unit.ts';
import { renderDraft } from './agreement-render.ts';
import { AGREEMENT_COLUMNS, type AgreementRow } from './agreement-wire.ts';

/** What the contractor consents to by signing; printed on the signature page. */
export const CONSENT_TEXT =
  'I have read this agreement, I agree to its terms, and I consent to sign it electronically; my typed full name is my signature.';

/** "Master services agreement" -> "Master services agreement.md", safe for a file system. */
function markdownFileName(title: string): string {
  const base = title
    .replace(/[\\/:*?"<>|\p{Cc}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return `${Array.from(base).slice(0, 150).join('').trim() || 'agreement'}.md`;
}

/**
 * Fixes the exact document to be signed: a draft rendered with the contractor's fields (as
 * Markdown) or the uploaded original byte for byte; its SHA-256 is what the signature covers.
 */
export async function sendAgreement(
  unit: UnitOfWork,
  contractorId: string,
  templateId: string,
  title: string | undefined,
): Promise<AgreementRow> {
  const template = await unit.db
    .selectFrom('agreement_templates')
    .select(['id', 'name', 'kind', 'media_type', 'file_name', 'content'])
    .where('organization_id', '=', unit.organizationId)
    .where('id', '=', templateId)
    .executeTakeFirst();
  if (!template) throw notFound('Template', 'templateId');
  const fields = await unit.db
    .selectFrom('contractors as c')
    .innerJoin('organizations as o', 'o.id', 'c.organization_id')
    .leftJoin('job_roles as r', (join) =>
      join.onRef('r.id', '=', 'c.job_role_id').onRef('r.organization_id', '=', 'c.organization_id'),
    )
    .select([
      'c.display_name',
      'c.legal_name',
      'c.email',
      'c.country',
      'r.name as role_name',
      'o.name as org_name',
    ])
    .where('c.organization_id', '=', unit.organizationId)
    .where('c.id', '=', contractorId)
    .executeTakeFirst();
  if (!fields) throw notFound('Contractor', 'contractorId');
  const now = unit.clock.now().toISOString();
  const name = title ?? template.name;
  let document: Buffer;
  let mediaType = template.media_type;
  let fileName = template.file_name ?? markdownFileName(name);
  if (template.kind === 'markdown_draft') {
    const rendered = renderDraft(Buffer.from(template.content).toString('utf8'), {
      'contractor.displayName': fields.display_name,
      'contractor.legalName': fields.legal_name,
      'contractor.email': fields.email,
      'contractor.country': fields.country ?? '',
      'role.name': fields.role_name ?? '',
      'organization.name': fields.org_name,
      date: now.slice(0, 10),
    });
    document = Buffer.from(rendered, 'utf8');
    mediaType = 'text/markdown';
    fileName = markdownFileName(name);
  } else {
    document = Buffer.from(template.content);
  }
  const row = {
    id: newId(),
    organization_id: unit.organizationId,
    contractor_id: contractorId,
    template_id: template.id,
    title: name,
    media_type: mediaType,
    file_name: fileName,
    document,
    document_sha256: sha256Hex(document),
    status: 'sent' as const,
    signed_at: null,
    signed_name: null,
    signed_address: null,
    signed_user_agent: null,
    signed_pdf: null,
    voided_at: null,
    void_reason: null,
    revision: 1,
    created_at: now,
    updated_at: now,
  };
  await unit.db.insertInto('contractor_agreements').values(row).execute();
  await unit.audit({ recordType: 'agreement', recordId: row.id, beforeRevision: null, afterRevision: 1 });
  await unit.emit({
    type: 'agreement.sent',
    subject: { type: 'agreement', id: row.id },
    data: { contractorId, templateId: template.id, documentSha256: row.document_sha256 },
  });
  return loadAgreement(unit.db, unit.organizationId, row.id);
}

/** The agreement (of `contractorId` when given: the portal's own), without its bytes, or 404. */
export async function loadAgreement(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
  contractorId?: string,
): Promise<AgreementRow> {
  let query = db
    .selectFrom('contractor_agreements')
    .select(AGREEMENT_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id);
  if (contractorId !== undefined) query = query.where('contractor_id', '=', contractorId);
  const row = await query.executeTakeFirst();
  if (!row) throw notFound('Agreement', 'id');
  return row;
}

/** The bytes to download: the signed PDF once signed, else the document to be signed. */
export async function agreementFile(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
  contractorId?: string,
) {
  const row = await loadAgreement(db, organizationId, id, contractorId);
  const blobs = await db
    .selectFrom('contractor_agreements')
    .select(['document', 'signed_pdf'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  // A signed agreement voided later still downloads its signed PDF: the signature happened.
  if (row.signed_at !== null && blobs.signed_pdf) {
    const bytes = Buffer.from(blobs.signed_pdf);
    const stem = row.file_name.replace(/\.[A-Za-z0-9]{1,5}$/, '');
    return { row, bytes, signed: true, mediaType: 'application/pdf', fileName: `${stem} (signed).pdf` };
  }
  return {
    row,
    bytes: Buffer.from(blobs.document),
    signed: false,
    mediaType: row.media_type,
    fileName: row.file_name,
  };
}

function refuseUnless(row: AgreementRow, allowed: 'sign' | 'void'): void {
  if (row.status === 'voided') {
    throw new AppError('agreement_voided', 'The agreement was voided; ask for a new one.', { field: 'id' });
  }
  if (allowed === 'sign' && row.status === 'signed') {
    throw new AppError('agreement_already_signed', `The agreement was already signed at ${row.signed_at}.`, {
      field: 'id',
    });
  }
}

async function compareAndSet(
  unit: UnitOfWork,
  row: AgreementRow,
  mode: 'sign' | 'void',
  set: Record<string, unknown>,
) {
  const result = await unit.db
    .updateTable('contractor_agreements')
    .set({ ...set, revision: row.revision + 1, updated_at: unit.clock.now().toISOString() })
    .where('organization_id', '=', unit.organizationId)
    .where('id', '=', row.id)
    .where('revision', '=', row.revision)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) {
    // Someone else changed it first: signed or voided meanwhile is that refusal, not a 409 retry.
    const current = await loadAgreement(unit.db, unit.organizationId, row.id);
    refuseUnless(current, mode);
    throw revisionConflict(current.revision);
  }
  await unit.audit({
    recordType: 'agreement',
    recordId: row.id,
    beforeRevision: row.revision,
    afterRevision: row.revision + 1,
  });
}

export async function voidAgreement(
  unit: UnitOfWork,
  row: AgreementRow,
  expectedRevision: number,
  reason: string,
) {
  if (row.revision !== expectedRevision) throw revisionConflict(row.revision);
  refuseUnless(row, 'void');
  const now = unit.clock.now().toISOString();
  await compareAndSet(unit, row, 'void', { status: 'voided', voided_at: now, void_reason: reason });
  await unit.emit({
    type: 'agreement.voided',
    subject: { type: 'agreement', id: row.id },
    data: { contractorId: row.contractor_id, reason, wasSigned: row.status === 'signed' },
  });
  return loadAgreement(unit.db, unit.organizationId, row.id);
}

export interface Signature {
  fullName: string;
  consent: boolean;
  clientAddress: string;
  userAgent: string;
  /** The SHA-256 the contractor was shown: the signature covers exactly those bytes. */
  documentSha256: string;
}

/** A signature checked and its PDF rendered, before any write transaction is opened. */
export interface PreparedSignature {
  agreementId: string;
  fullName: string;
  signedAt: string;
  clientAddress: string;
  userAgent: string;
  /** The document (and its title and name) the PDF was rendered from. */
  documentSha256: string;
  title: string;
  fileName: string;
  mediaType: string;
  signedPdf: Buffer;
}

/**
 * The contractor signs their own agreement, in two steps: `prepareSignature` checks the signature
 * and renders the signed PDF (typed full name and consent, the time, client address and the
 * SHA-256 of the exact document), then `signAgreement` stores it in a write unit, so every
 * download gives the same bytes. Rendering reads an untrusted template in a sandbox child and can
 * take seconds: done outside the transaction, it never holds the (SQLite) writer or row locks.
 */
export async function prepareSignature(
  db: Kysely<Database>,
  organizationId: string,
  contractorId: string,
  id: string,
  signature: Signature,
  now: Date,
): Promise<PreparedSignature> {
  const row = await loadAgreement(db, organizationId, id, contractorId);
  refuseUnless(row, 'sign');
  if (!signature.consent) {
    throw new AppError('invalid_input', 'Tick the consent box to sign.', { field: 'consent' });
  }
  const fullName = signature.fullName.trim();
  if (fullName.length < 2 || fullName.length > 300) {
    throw new AppError('invalid_input', 'Type your full name (2-300 characters) to sign.', {
      field: 'fullName',
    });
  }
  if (signature.documentSha256 !== row.document_sha256) throw documentChanged();
  const signedAt = now.toISOString();
  const { document } = await db
    .selectFrom('contractor_agreements')
    .select('document')
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  // Rendered in a sandbox child (agreement-sandboxed.ts): the template is untrusted bytes.
  const { renderSignedPdfInSandbox } = await import('./agreement-sandboxed.ts');
  const signedPdf = await renderSignedPdfInSandbox(Buffer.from(document), {
    agreementId: row.id,
    title: row.title,
    fileName: row.file_name,
    mediaType: row.media_type,
    documentSha256: row.document_sha256,
    signedName: fullName,
    signedAt,
    clientAddress: signature.clientAddress,
    consentText: CONSENT_TEXT,
  });
  return {
    agreementId: row.id,
    fullName,
    signedAt,
    clientAddress: signature.clientAddress,
    userAgent: signature.userAgent.slice(0, 500),
    documentSha256: row.document_sha256,
    title: row.title,
    fileName: row.file_name,
    mediaType: row.media_type,
    signedPdf,
  };
}

function documentChanged(): AppError {
  return new AppError('invalid_input', 'The document changed since it was shown; reload and read it again.', {
    field: 'documentSha256',
  });
}

/**
 * Stores a prepared signature. The agreement is read again inside the unit: voided or signed
 * meanwhile is refused as before, and a PDF rendered from anything but the current document,
 * title, name and media type is refused too (its signature page would not match the row).
 */
export async function signAgreement(unit: UnitOfWork, contractorId: string, prepared: PreparedSignature) {
  const row = await loadAgreement(unit.db, unit.organizationId, prepared.agreementId, contractorId);
  refuseUnless(row, 'sign');
  if (
    row.document_sha256 !== prepared.documentSha256 ||
    row.title !== prepared.title ||
    row.file_name !== prepared.fileName ||
    row.media_type !== prepared.mediaType
  ) {
    throw documentChanged();
  }
  await compareAndSet(unit, row, 'sign', {
    status: 'signed',
    signed_at: prepared.signedAt,
    signed_name: prepared.fullName,
    signed_address: prepared.clientAddress,
    signed_user_agent: prepared.userAgent,
    signed_pdf: prepared.signedPdf,
  });
  await unit.emit({
    type: 'agreement.signed',
    subject: { type: 'agreement', id: row.id },
    data: {
      contractorId,
      signedName: prepared.fullName,
      documentSha256: row.document_sha256,
      signedAt: Math.floor(Date.parse(prepared.signedAt) / 1000),
    },
  });
  return loadAgreement(unit.db, unit.organizationId, row.id);
}

/** Both steps for a contractor's own signature (the portal): render first, then one write unit. */
export async function signAsContractor(
  runtime: UnitRuntime,
  options: UnitOptions,
  contractorId: string,
  id: string,
  signature: Signature,
) {
  const prepared = await prepareSignature(
    runtime.db.readKysely,
    options.organizationId,
    contractorId,
    id,
    signature,
    runtime.clock.now(),
  );
  return withUnit(runtime, options, (unit) => signAgreement(unit, contractorId, prepared));
}
