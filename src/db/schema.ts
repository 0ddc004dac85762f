import type { BooksTables } from './tables/books.ts';
import type { CompanyMailTables } from './tables/company-mail.ts';
import type { ContractorWorkTables } from './tables/contractor-work.ts';
import type { ContractorTables } from './tables/contractors.ts';
import type { CoreTables } from './tables/core.ts';
import type { FileTables } from './tables/files.ts';
import type { InvitationTables } from './tables/invitations.ts';
import type { InvoicingTables } from './tables/invoicing.ts';
import type { ReceiptTables } from './tables/receipts.ts';
import type { ReferenceRateTables } from './tables/reference-rates.ts';
import type { ScheduleTables } from './tables/schedules.ts';
import type { SessionTables } from './tables/sessions.ts';
import type { WebhookTables } from './tables/webhooks.ts';

/** Every table, one interface per area (src/db/tables/<area>.ts). */
export interface Database
  extends CoreTables,
    ContractorTables,
    ContractorWorkTables,
    InvitationTables,
    WebhookTables,
    InvoicingTables,
    ScheduleTables,
    BooksTables,
    SessionTables,
    ReceiptTables,
    ReferenceRateTables,
    CompanyMailTables,
    FileTables {}
