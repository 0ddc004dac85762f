import type { Kysely } from 'kysely';
import * as core from './0001-core.ts';
import * as contractors from './0002-contractors.ts';
import * as invitations from './0003-invitations.ts';
import * as webhooks from './0004-webhooks.ts';
import * as invoicing from './0005-invoicing.ts';
import * as schedules from './0006-schedules.ts';
import * as eventRetention from './0007-event-retention.ts';
import * as mailRetention from './0008-mail-retention.ts';
import * as books from './0009-books.ts';
import * as operations from './0010-operations.ts';
import * as admin from './0011-admin.ts';
import * as idempotencyFencing from './0012-idempotency-fencing.ts';
import * as receipts from './0013-receipts.ts';
import * as companyMail from './0014-company-mail.ts';
import * as contractorWork from './0015-contractor-work.ts';
import * as sessions from './0016-sessions.ts';
import * as webhookClaim from './0017-webhook-claim.ts';
import * as searchIndex from './0018-search-index.ts';
import * as requestPipeline from './0019-request-pipeline.ts';
import * as importHistory from './0027-import-history.ts';
import * as importIndexes from './0029-import-indexes.ts';
import * as receiptServicePeriod from './0030-receipt-service-period.ts';
import * as fileParts from './0031-file-parts.ts';
import * as referenceRates from './0032-reference-rates.ts';
import type { ColumnTypes } from './column-types.ts';

export interface AppMigration {
  up(db: Kysely<unknown>, types: ColumnTypes): Promise<void>;
}

/**
 * Every migration in order. Names sort lexically; a new area adds its file and one line here.
 * Migrations only move forward: once released, one is never edited (none is released yet).
 */
export const MIGRATIONS: Record<string, AppMigration> = {
  '0001-core': core,
  '0002-contractors': contractors,
  '0003-invitations': invitations,
  '0004-webhooks': webhooks,
  '0005-invoicing': invoicing,
  '0006-schedules': schedules,
  '0007-event-retention': eventRetention,
  '0008-mail-retention': mailRetention,
  '0009-books': books,
  '0010-operations': operations,
  '0011-admin': admin,
  '0012-idempotency-fencing': idempotencyFencing,
  '0013-receipts': receipts,
  '0014-company-mail': companyMail,
  '0015-contractor-work': contractorWork,
  '0016-sessions': sessions,
  '0017-webhook-claim': webhookClaim,
  '0018-search-index': searchIndex,
  '0019-request-pipeline': requestPipeline,
  '0027-import-history': importHistory,
  '0029-import-indexes': importIndexes,
  '0030-receipt-service-period': receiptServicePeriod,
  '0031-file-parts': fileParts,
  '0032-reference-rates': referenceRates,
};
