import { Type } from 'typebox';
import { Id, Limit, Offset, Timestamp } from '../../contract/formats.ts';
import { listOutbox } from '../../mail/outbox-list.ts';
import { defineOperation } from '../define.ts';
import { OffsetPage, offsetPage } from '../pagination.ts';

const OutboxEntry = Type.Object(
  {
    id: Id('Message id.'),
    kind: Type.Union([Type.String(), Type.Null()], {
      description: 'What the mail is, e.g. `contractor.invitation`.',
    }),
    recipients: Type.Array(Type.String(), { description: 'Bare addresses it goes to.' }),
    subject: Type.String({ description: 'Subject line.' }),
    status: Type.String({
      description:
        '`pending`, `sending`, `sent`, `kept` (no SMTP configured: stored, not sent) or `failed` (gave up).',
    }),
    attempts: Type.Integer({ minimum: 0, description: 'Sending attempts so far.' }),
    last_error: Type.Union([Type.String(), Type.Null()], {
      description: 'Why the last attempt failed, or null.',
    }),
    created_at: Timestamp('When it was queued.'),
    sent_at: Type.Union([Timestamp('When it was sent.'), Type.Null()], {
      description: 'When it was sent, or null.',
    }),
  },
  { title: 'OutboxEntry', additionalProperties: false },
);

/**
 * What the service sent, is sending, kept (no SMTP) or gave up on, for the dashboard's
 * administration page. Bodies are never returned: sign-in and invitation links live there.
 */
export const listMailOutbox = defineOperation({
  name: 'admin.mailOutbox.list',
  summary: "List the organization's outgoing mail and its delivery state, newest first",
  description:
    'Offset pagination. Recipients, subject, kind, state, attempts and the last error; never the body or attachments.',
  access: { scopes: ['accounting:read', 'accounting:admin'], roles: ['admin'] },
  // Delivery state is an operator's concern; an agent has no use for it.
  mcpTool: false,
  input: Type.Object(
    {
      limit: Type.Optional(Limit),
      offset: Type.Optional(Offset),
      status: Type.Optional(
        Type.Union(
          [
            Type.Literal('pending'),
            Type.Literal('sending'),
            Type.Literal('sent'),
            Type.Literal('kept'),
            Type.Literal('failed'),
          ],
          { description: 'Only mail in this state: pending, sending, sent, kept or failed.' },
        ),
      ),
    },
    { additionalProperties: false },
  ),
  output: OffsetPage(OutboxEntry, 'The page of outgoing mail, newest first.'),
  example: { limit: 30, status: 'failed' },
  async run({ ctx, input }) {
    const limit = input.limit ?? 30;
    const offset = input.offset ?? 0;
    const rows = await listOutbox(ctx.db, ctx.organizationId, {
      limit: limit + 1,
      offset,
      status: input.status,
    });
    return offsetPage(rows, limit, offset);
  },
});
