import type { PageHandler } from '../routes.ts';
import { accountsPage } from './accounts.ts';
import { adminPage } from './admin.ts';
import { auditLogPage } from './admin-audit.ts';
import { organizationPage } from './admin-organization.ts';
import { agreementTemplatePage, agreementTemplatesPage } from './agreement-templates.ts';
import { consolidationPage } from './consolidation.ts';
import { contractorPage } from './contractor.ts';
import { contractorRolesPage } from './contractor-roles.ts';
import { taxSummaryPage } from './contractor-tax-summary.ts';
import { contractorsPage } from './contractors.ts';
import { homePage } from './home.ts';
import { invoicePage, invoicesPage } from './invoices.ts';
import { exportPage, ledgerPage } from './ledger.ts';
import { receiptPage } from './receipts.ts';
import { receiptsPage } from './receipts-inbox.ts';
import { importPage, transactionsPage } from './transactions.ts';
import { webhookDeliveryPage, webhookEndpointPage, webhooksPage } from './webhooks.ts';

/** Every signed-in page by path; each reads through catalog operations as the member. */
export const PAGES: Record<string, PageHandler> = {
  '/dashboard': homePage,
  '/dashboard/webhooks': webhooksPage,
  '/dashboard/webhooks/:id': webhookEndpointPage,
  '/dashboard/webhooks/deliveries/:id': webhookDeliveryPage,
  '/dashboard/invoices': invoicesPage,
  '/dashboard/invoices/:id': invoicePage,
  '/dashboard/contractors': contractorsPage,
  '/dashboard/contractors/roles': contractorRolesPage,
  '/dashboard/contractors/templates': agreementTemplatesPage,
  '/dashboard/contractors/templates/:id': agreementTemplatePage,
  '/dashboard/contractors/tax-summary': taxSummaryPage,
  '/dashboard/contractors/:id': contractorPage,
  '/dashboard/accounts': accountsPage,
  '/dashboard/transactions': transactionsPage,
  '/dashboard/transactions/imports/:id': importPage,
  '/dashboard/entries': ledgerPage,
  '/dashboard/entries/exports/:id': exportPage,
  '/dashboard/admin': adminPage,
  '/dashboard/admin/audit': auditLogPage,
  '/dashboard/admin/organization': organizationPage,
  '/dashboard/receipts': receiptsPage,
  '/dashboard/receipts/:id': receiptPage,
  '/dashboard/consolidations': consolidationPage,
};
