import { Type } from 'typebox';
import { listAuditEntries } from '../../admin/audit-log.ts';
import { Id, Limit, Timestamp } from '../../contract/formats.ts';
import { refuseReversedInstants } from '../date-range.ts';
import { defineOperation } from '../define.ts';
import { Cursor, CursorPage, cursorPage, decodeCursor } from '../pagination.ts';
import { AuditEntry, toAuditEntry } from './schema.ts';

export const listAuditLog = defineOperation({
  name: 'admin.auditLog.list',
  summary: "List the organization's audit entries, newest first",
  description:
    'One entry per record changed: who (actor and credential), how (transport), which operation and request, which record, and its revision before and after. Cursor pagination; filters combine.',
  access: { scopes: ['accounting:read', 'accounting:admin'], roles: ['admin'] },
  input: Type.Object(
    {
      limit: Type.Optional(Limit),
      cursor: Type.Optional(Cursor),
      actorId: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          description: 'Only entries of this actor (member id, contractor id or job:<name>).',
        }),
      ),
      operation: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          description: 'Only entries of this operation, e.g. admin.members.suspend.',
        }),
      ),
      recordId: Type.Optional(Id('Only entries about this record.')),
      recordType: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 100,
          description: 'Only entries about records of this kind, e.g. member.',
        }),
      ),
      from: Type.Optional(Timestamp('Only entries at or after this instant (ISO 8601).')),
      to: Type.Optional(Timestamp('Only entries before this instant (ISO 8601).')),
    },
    { additionalProperties: false },
  ),
  output: CursorPage(AuditEntry, 'The page of audit entries, newest first.'),
  example: { limit: 30, operation: 'admin.members.suspend' },
  async run({ ctx, input }) {
    const limit = input.limit ?? 30;
    const from = input.from === undefined ? undefined : new Date(input.from).toISOString();
    const to = input.to === undefined ? undefined : new Date(input.to).toISOString();
    refuseReversedInstants(from, to);
    const rows = await listAuditEntries(ctx.db, ctx.organizationId, {
      limit,
      after: input.cursor === undefined ? undefined : decodeCursor(input.cursor),
      actorId: input.actorId,
      operation: input.operation,
      recordId: input.recordId,
      recordType: input.recordType,
      from,
      to,
    });
    return cursorPage(
      rows.map((row) => ({ ...row, created_at: new Date(row.created_at).toISOString() })),
      limit,
      toAuditEntry,
    );
  },
});
