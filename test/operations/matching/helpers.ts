import assert from 'node:assert/strict';
import type { Caller, TestApp } from '../../support/app.ts';
import { call } from '../../support/http.ts';

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
