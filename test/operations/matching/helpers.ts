import assert from 'node:assert/strict';
import type { Caller, TestApp } from '../../support/app.ts';
import { call } from '../../support/http.ts';
import { ublReceipt } from '../../support/receipts.ts';
import { uploadAndProcess } from '../receipts/helpers.ts';

/** An EUR card account with one card (last four 4242) held by the caller. */
export async function cardAccount(
  app: TestApp,
  caller: Caller,
): Promise<{ accountId: string; cardId: string }> {
  const account = await call(
    app.baseUrl,
    'accounts.create',
    { name: 'Card', kind: 'credit_card', currency: 'EUR' },
    { token: caller.token },
  );
  assert.equal(account.status, 200, JSON.stringify(account.body));
  const accountId = (account.data as { id: string }).id;
  const card = await call(
    app.baseUrl,
    'cards.create',
    { accountId, holderMemberId: caller.memberId, lastFour: '4242', brand: 'Visa' },
    { token: caller.token },
  );
  assert.equal(card.status, 200, JSON.stringify(card.body));
  return { accountId, cardId: (card.data as { id: string }).id };
}

export async function cardTransaction(
  app: TestApp,
  caller: Caller,
  card: { accountId: string; cardId: string },
  bookedDate: string,
  amountMinor: string,
  description: string,
): Promise<{ id: string; revision: number; entry_id: string }> {
  const res = await call(
    app.baseUrl,
    'transactions.create',
    { accountId: card.accountId, cardId: card.cardId, bookedDate, amountMinor, description },
    { token: caller.token },
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.data as { id: string; revision: number; entry_id: string };
}

export async function attentionIds(app: TestApp, caller: Caller): Promise<string[]> {
  const res = await call(app.baseUrl, 'attention.mine', { limit: 100 }, { token: caller.token });
  assert.equal(res.status, 200);
  return (res.data as { items: { id: string }[] }).items.map((i) => i.id);
}

export async function suggestions(app: TestApp, caller: Caller, input: Record<string, unknown>) {
  const res = await call(app.baseUrl, 'matching.suggestions.list', input, { token: caller.token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return (
    res.data as {
      items: {
        id: string;
        receipt_id: string;
        transaction_id: string;
        revision: number;
        score: number;
        state: string;
      }[];
    }
  ).items;
}

/**
 * A processed PayPal receipt for Spotify, EUR 49.90 dated 2026-03-02: the provider side of a
 * `provider_card_settlement` with a card charge of -4990. `documentId` keeps documents apart.
 */
export async function paypalReceipt(app: TestApp, caller: Caller, documentId: string) {
  const receipt = await uploadAndProcess(
    app,
    caller,
    ublReceipt({
      id: documentId,
      merchant: 'PayPal Europe (Spotify)',
      date: '2026-03-02',
      amountMinor: 4990n,
    }),
    'paypal.xml',
    'application/xml',
  );
  assert.ok(receipt.entry_id);
  return { ...receipt, entry_id: receipt.entry_id };
}
