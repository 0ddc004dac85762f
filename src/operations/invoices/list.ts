import { sql } from 'kysely';
import { Type } from 'typebox';
import { Id, Limit, Offset } from '../../contract/formats.ts';
import { organizationToday, selectInvoices, toInvoice } from '../../invoicing/invoices/index.ts';
import { defineOperation } from '../define.ts';
import { OffsetPage, offsetPage } from '../pagination.ts';
import { likePattern } from '../parties/list.ts';
import { InvoiceSummary, toInvoiceSummary } from './schema.ts';

const StatusFilter = Type.Enum(['draft', 'sent', 'paid', 'void', 'overdue'], {
  description:
    "Only invoices in this status; `overdue` means sent, balance above 0 and due before the organization's today.",
});

export const listInvoices = defineOperation({
  name: 'invoices.list',
  summary: 'List invoices, newest first',
  description:
    'Offset pagination; lines and payments are left out (invoices.get has them). `search` matches the invoice number or the party name.',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object(
    {
      limit: Type.Optional(Limit),
      offset: Type.Optional(Offset),
      status: Type.Optional(StatusFilter),
      search: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          description: 'Invoice number or party name, up to 200 characters.',
        }),
      ),
      partyId: Type.Optional(Id('Only invoices of this party.')),
    },
    { additionalProperties: false },
  ),
  output: OffsetPage(
    InvoiceSummary,
    'The page of invoices (without lines and payments), newest first (by creation).',
  ),
  example: { status: 'sent', limit: 30 },
  async run({ ctx, input }) {
    const limit = input.limit ?? 30;
    const offset = input.offset ?? 0;
    const today = await organizationToday(ctx.db, ctx.organizationId, ctx.clock);
    let query = selectInvoices(ctx.db, ctx.organizationId);
    if (input.status === 'overdue') {
      query = query
        .where('i.status', '=', 'sent')
        .where('i.due_date', '<', today)
        .where('i.balance_minor', '>', 0);
    } else if (input.status !== undefined) {
      query = query.where('i.status', '=', input.status);
    }
    if (input.partyId !== undefined) query = query.where('i.party_id', '=', input.partyId);
    if (input.search) {
      const pattern = likePattern(input.search);
      query = query.where(
        sql<boolean>`(lower(coalesce(i.number, '')) like ${pattern} escape '\\' or exists (select 1 from parties p where p.id = i.party_id and p.organization_id = i.organization_id and lower(p.name) like ${pattern} escape '\\'))`,
      );
    }
    const rows = await query
      .orderBy('i.created_at', 'desc')
      .orderBy('i.id', 'desc')
      .limit(limit + 1)
      .offset(offset)
      .execute();
    return offsetPage(
      rows.map((row) => toInvoiceSummary(toInvoice(row), today)),
      limit,
      offset,
    );
  },
});
