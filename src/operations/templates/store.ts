import type { TemplateKind } from '../../db/tables/contractors.ts';
import { sha256Hex } from '../../lib/canonical-json.ts';
import { newId } from '../../lib/ids.ts';
import type { OperationContext } from '../context.ts';
import { type Template, toTemplate } from './records.ts';

/** Stores a new template (content in the database), audits it and emits `agreement_template.created`. */
export async function insertTemplate(
  ctx: OperationContext,
  template: { name: string; kind: TemplateKind; mediaType: string; fileName: string | null; content: Buffer },
): Promise<Template> {
  const now = ctx.clock.now().toISOString();
  const row = {
    id: newId(),
    organization_id: ctx.organizationId,
    name: template.name,
    kind: template.kind,
    media_type: template.mediaType,
    file_name: template.fileName,
    size_bytes: template.content.length,
    sha256: sha256Hex(template.content),
    content: template.content,
    created_by: ctx.principal.memberId,
    revision: 1,
    created_at: now,
    updated_at: now,
  };
  await ctx.db.insertInto('agreement_templates').values(row).execute();
  await ctx.audit({
    recordType: 'agreement_template',
    recordId: row.id,
    beforeRevision: null,
    afterRevision: 1,
  });
  await ctx.emit({
    type: 'agreement_template.created',
    subject: { type: 'agreement_template', id: row.id },
    data: { name: row.name, kind: row.kind, mediaType: row.media_type, sizeBytes: row.size_bytes },
  });
  return toTemplate(row);
}
