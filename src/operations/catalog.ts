import type { Static } from 'typebox';
import { accountOperations } from './accounts/index.ts';
import { adminOperations } from './admin/index.ts';
import { attentionOperations } from './attention/index.ts';
import { cardOperations } from './cards/index.ts';
import { categoryOperations } from './categories/index.ts';
import { contractorOpsOperations } from './contractor-ops/index.ts';
import {
  agreementOperations,
  contractorOperations,
  hoursOperations,
  invitationOperations,
  payoutOperations,
  templateOperations,
} from './contractors/index.ts';
import type { AnyOperation } from './define.ts';
import { entryOperations } from './entries/index.ts';
import { inboxOperations } from './inbox/index.ts';
import { invoiceOperations, scheduleOperations } from './invoices/index.ts';
import { mailOperations } from './mail/index.ts';
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
const CATALOG = [
  ...contractorOperations,
  ...contractorOpsOperations,
  ...invitationOperations,
  ...templateOperations,
  ...hoursOperations,
  ...payoutOperations,
  ...agreementOperations,
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
  ...mailOperations,
] as const;

export const OPERATIONS: readonly AnyOperation[] = CATALOG;

/**
 * The catalog's types, for callers inside the process (the dashboard): an operation's name, its
 * input as the schema declares it and its output, without a cast (issue 24).
 */
export type CatalogOperation = (typeof CATALOG)[number];
export type OperationName = CatalogOperation['name'];
export type OperationInput<N extends OperationName> = Static<Extract<CatalogOperation, { name: N }>['input']>;
export type OperationOutput<N extends OperationName> = Static<
  Extract<CatalogOperation, { name: N }>['output']
>;

const byName = new Map(OPERATIONS.map((operation) => [operation.name, operation]));

export function findOperation(name: string): AnyOperation | undefined {
  return byName.get(name);
}
