import { Type } from 'typebox';
import { decodeAttentionCursor, encodeAttentionCursor } from '../../books/attention-cursor.ts';
import { Limit } from '../../contract/formats.ts';
import { asInt, asMinor } from '../../db/values.ts';
import { defineOperation } from '../define.ts';
import { Cursor } from '../pagination.ts';

/** The contract's attention item, exactly its six fields. */
export const AttentionItem = Type.Object(
  {
    id: Type.String({ description: 'Transaction id (ID).' }),
    merchant: Type.String({ description: 'Cleaned merchant name.' }),
    date: Type.String({ format: 'date', description: 'Booked date.' }),
    currency: Type.String({ description: 'Currency of the amount.' }),
    amountMinor: Type.String({
      description: 'Amount, signed decimal string of minor units (negative is money out).',
    }),
    lastFour: Type.String({ description: 'Last four digits of the card used.' }),
  },
  { title: 'AttentionItem', additionalProperties: false },
);

export const attentionMine = defineOperation({
  name: 'attention.mine',
  summary: 'Card transactions of my cards that still need a receipt',
  description:
    'For the calling member: transactions on the cards they hold that have no receipt and are not excluded, newest booked date first, then id. Cursor pages that never skip or repeat when transactions arrive between pages. `total` counts all such items; `cards` lists the last four digits of the member’s cards that have any.',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object(
    { limit: Type.Optional(Limit), cursor: Type.Optional(Cursor) },
    { additionalProperties: false },
  ),
  output: Type.Object(
    {
      items: Type.Array(AttentionItem, {
        description: 'The page of items, newest booked date first, then by id.',
      }),
      nextCursor: Type.Union([Type.String(), Type.Null()], {
        description: 'Cursor of the next page, or null when no more items remain.',
      }),
      total: Type.Integer({ minimum: 0, description: 'All such items (every page).' }),
      cards: Type.Array(Type.String(), {
        description: 'Last four digits of the member’s cards that have any such item, sorted.',
      }),
    },
    { additionalProperties: false },
  ),
  example: { limit: 30 },
  async run({ ctx, input }) {
    const limit = input.limit ?? 30;
    const position = input.cursor === undefined ? undefined : decodeAttentionCursor(input.cursor);
    const base = () =>
      ctx.db
        .selectFrom('bank_transactions as t')
        .innerJoin('books_cards as c', 'c.id', 't.card_id')
        .where('t.organization_id', '=', ctx.organizationId)
        .where('c.organization_id', '=', ctx.organizationId)
        .where('c.holder_member_id', '=', ctx.principal.memberId)
        .where('t.receipt_id', 'is', null)
        .where('t.status', '!=', 'excluded')
        // A charge a receipt was consolidated into has its receipt (decision 332).
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('receipt_consolidations as k')
                .select('k.id')
                .where('k.organization_id', '=', ctx.organizationId)
                .whereRef('k.target_entry_id', '=', 't.entry_id'),
            ),
          ),
        );
    let page = base().select([
      't.id',
      't.merchant',
      't.booked_date',
      't.currency',
      't.amount_minor',
      'c.last_four',
    ]);
    if (position) {
      const { date, id } = position;
      page = page.where((eb) =>
        // A row comparison, so the partial index (card_id, booked_date, id) seeks to the page.
        eb(eb.refTuple('t.booked_date', 't.id'), '<', eb.tuple(date, id)),
      );
    }
    const rows = await page
      .orderBy('t.booked_date', 'desc')
      .orderBy('t.id', 'desc')
      .limit(limit + 1)
      .execute();
    const totals = await base()
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirst();
    const cards = await base().select('c.last_four').distinct().orderBy('c.last_four').execute();
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    return {
      items: items.map((row) => ({
        id: row.id,
        merchant: row.merchant,
        date: row.booked_date,
        currency: row.currency,
        amountMinor: asMinor(row.amount_minor).toString(),
        lastFour: row.last_four,
      })),
      nextCursor:
        rows.length > limit && last ? encodeAttentionCursor({ date: last.booked_date, id: last.id }) : null,
      total: asInt(totals?.count ?? 0),
      cards: cards.map((row) => row.last_four),
    };
  },
});
