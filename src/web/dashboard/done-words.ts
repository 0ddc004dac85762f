import { findOperation } from '../../operations/catalog.ts';

/**
 * What happened, in words, after a dashboard form succeeded (the "Done" line, issue 30 part 5):
 * the member pressed a button on a page, so the line says what changed, not the operation's
 * summary ("Create a money account (bank, card...)"). `test/web/done-words.test.ts` checks that
 * every operation a dashboard form calls has its words here.
 */
const DONE: Readonly<Record<string, string>> = {
  'accounts.create': 'the account was added',
  'cards.create': 'the card was added',
  'categories.save': 'the category was saved',
  'entries.update': 'the entry was saved',
  'entries.export': 'the export was started',
  'transactions.imports.create': 'the statement import was started',
  'receipts.upload': 'the receipt was uploaded',
  'inbox.confirm': 'the values were confirmed',
  'inbox.ignore': 'the receipt was ignored',
  'inbox.restore': 'the receipt is back in the inbox',
  'matching.attach': 'the receipt was attached to the transaction',
  'matching.detach': 'the receipt was detached from its transaction',
  'matching.suggestions.confirm': 'the match was confirmed',
  'matching.suggestions.decline': 'the suggestion was declined',
  'matching.suggestions.reopen': 'the suggestion is offered again',
  'matching.receiptConsolidation.confirm': 'the consolidation was recorded',
  'invoices.send': 'the invoice was sent',
  'invoices.payments.record': 'the payment was recorded',
  'invoices.schedules.pause': 'the schedule was paused',
  'invoices.schedules.resume': 'the schedule was resumed',
  'contractors.create': 'the contractor was added',
  'contractors.update': "the contractor's details were saved",
  'contractors.email.update': "the contractor's e-mail was changed",
  'contractors.invite': 'the invitation was sent',
  'contractors.invitations.revoke': 'the invitation was revoked',
  'contractors.taxProfile.review': 'the tax review was recorded',
  'contractors.hours.submit': 'the hours were recorded',
  'contractors.hours.approve': 'the hours were approved',
  'contractors.hours.reject': 'the hours were rejected and sent back to the contractor',
  'contractors.payouts.create': 'the payout was created',
  'contractors.payouts.markPaid': 'the payout was marked paid',
  'contractors.agreements.send': 'the agreement was sent',
  'contractors.agreements.void': 'the agreement was voided',
  'contractors.templates.upload': 'the template was uploaded',
  'contractors.templates.createDraft': 'the draft template was saved',
  'contractorOps.roles.save': 'the job role was saved',
  'contractorOps.roles.assign': 'the job role was assigned',
  'webhooks.endpoints.create': 'the endpoint was added',
  'webhooks.endpoints.enable': 'the endpoint was turned back on',
  'webhooks.endpoints.test': 'a test event was sent',
  'webhooks.endpoints.rotateSecret': 'the signing secret was replaced',
  'webhooks.deliveries.retry': 'the delivery will be retried',
  'webhooks.deliveries.recover': 'the failed deliveries will be sent again',
  'admin.members.add': 'the member was added',
  'admin.members.update': "the member's role was changed",
  'admin.members.suspend': 'the member was suspended',
  'admin.members.reinstate': 'the member was reinstated',
  'admin.members.remove': 'the member was removed',
  'admin.apiKeys.create': 'the API key was created',
  'admin.apiKeys.revoke': 'the API key was revoked',
  'admin.organization.update': 'the settings were saved',
};

/** Operations with words of their own (for the test that every form's operation has some). */
export const OPERATIONS_WITH_DONE_WORDS: readonly string[] = Object.keys(DONE);

/**
 * The notice after a successful action, or undefined for a name that is no operation (the
 * `done` query is the member's to edit). An operation without words of its own says "saved".
 */
export function doneLine(operation: string): string | undefined {
  if (!findOperation(operation)) return undefined;
  return `Done: ${DONE[operation] ?? 'your change was saved'}.`;
}
