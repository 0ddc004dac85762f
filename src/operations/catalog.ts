import { accountOperations } from './accounts/index.ts';
import { adminOperations } from './admin/index.ts';
import { attentionOperations } from './attention/index.ts';
import { cardOperations } from './cards/index.ts';
import { categoryOperations } from './categories/index.ts';
import { contractorOpsOperations } from './contractor-ops/index.ts';
import { contractorOperations, invitationOperations, templateOperations } from './contractors/index.ts';
import type { AnyOperation } from './define.ts';
import { entryOperations } from './entries/index.ts';
import { inboxOperations } from './inbox/index.ts';
import { invoiceOperations, scheduleOperations } from './invoices/index.ts';
import { matchingOperations } from './matching/index.ts';
import { partyOperations } from './parties/index.ts';
import { receiptOperations } from './receipts/index.ts';
import { transactionOperations } from './transactions/index.ts';
import { webhookOperations } from './webhooks/index.ts';

/**
 * Every operation. HTTP routes, the OpenAPI document, MCP tools, the docs table and the shared
 * security tests are all derived from this list. Each area keeps its own list in
 * `src/operations/<area>/index.ts`.
 */
export const OPERATIONS: readonly AnyOperation[] = [
  ...contractorOperations,
  ...contractorOpsOperations,
  ...invitationOperations,
  ...templateOperations,
  ...webhookOperations,
  ...partyOperations,
  ...invoiceOperations,
  ...scheduleOperations,
  ...matchingOperations,
  ...adminOperations,
  ...accountOperations,
  ...cardOperations,
  ...transactionOperations,
  ...categoryOperations,
  ...entryOperations,
  ...attentionOperations,
  ...receiptOperations,
  ...inboxOperations,
];

const byName = new Map(OPERATIONS.map((operation) => [operation.name, operation]));

export function findOperation(name: string): AnyOperation | undefined {
  return byName.get(name);
}
