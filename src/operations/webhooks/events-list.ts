import { sql } from 'kysely';
import { Type } from 'typebox';
import { AppError } from '../../contract/errors.ts';
import { Limit } from '../../contract/formats.ts';
import { EventEnvelope, toEnvelope } from '../../events/envelope.ts';
import { PATTERN_SYNTAX } from '../../events/patterns.ts';
import { defineOperation } from '../define.ts';
import { Cursor, CursorPage, cursorPage, decodeCursor } from '../pagination.ts';

export const listEvents = defineOperation({
  name: 'webhooks.events.list',
  summary: "List the organization's events, newest first",
  description:
    'Cursor pagination (events arrive all the time; pages never skip or repeat). Each item is the envelope exactly as delivered to endpoints. `type` filters by an exact type, a group (invoice.*) or *. Events are kept for ACCOUNTING_EVENT_RETENTION_DAYS (default 30).',
  access: { scopes: ['accounting:read'], roles: ['admin'] },
  input: Type.Object(
    {
      limit: Type.Optional(Limit),
      cursor: Type.Optional(Cursor),
      type: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          description: 'Only events of this type, or of this group (invoice.*).',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output: CursorPage(EventEnvelope, 'The page of event envelopes, newest first.'),
  example: { limit: 30, type: 'invoice.*' },
  async run({ ctx, input }) {
    const limit = input.limit ?? 30;
    let query = ctx.db
      .selectFrom('events')
      .select(['id', 'type', 'organization_id', 'subject_type', 'subject_id', 'data', 'created_at'])
      .where('organization_id', '=', ctx.organizationId);
    if (input.type !== undefined && input.type !== '*') {
      if (!PATTERN_SYNTAX.test(input.type)) {
        throw new AppError('invalid_input', 'type must be an event type, a group such as invoice.*, or *.', {
          field: 'type',
        });
      }
      if (input.type.endsWith('.*')) {
        // The syntax allows only [a-z0-9_.]; `_` is a LIKE wildcard, hence the escape.
        const prefix = input.type.slice(0, -1).replaceAll('_', '\\_');
        query = query.where(sql<boolean>`type like ${`${prefix}%`} escape '\\'`);
      } else {
        query = query.where('type', '=', input.type);
      }
    }
    if (input.cursor !== undefined) {
      const position = decodeCursor(input.cursor);
      query = query.where((eb) =>
        // A row comparison, so the index on (organization, created_at, id) seeks to the page.
        eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(position.createdAt, position.id)),
      );
    }
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .execute();
    return cursorPage(
      rows.map((row) => ({ ...row, created_at: new Date(row.created_at).toISOString() })),
      limit,
      toEnvelope,
    );
  },
});
