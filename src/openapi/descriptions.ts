import { type AnyOperation, mcpToolName } from '../operations/define.ts';

const TAG_TEXT: Record<string, string> = {
  contractors: 'Contractors, their portal invitations and agreement templates.',
  contractorOps: 'Contractor operations: roles, rates and the contractor directory.',
  invoices: 'Invoices, recurring invoice schedules and payment plans.',
  webhooks: 'Webhook endpoints that receive signed event deliveries.',
  matching: 'Receipt matching and reconciliation.',
  parties: 'Customers and other parties invoices are addressed to.',
};

/** A tag's description: a known sentence, else the list of its operations. */
export function tagDescription(tag: string, operations: readonly AnyOperation[]): string {
  const known = TAG_TEXT[tag];
  if (known) return known;
  const names = operations
    .filter((operation) => (operation.tag ?? operation.name.split('.')[0]) === tag)
    .map((operation) => `\`${operation.name}\``);
  return `Operations: ${names.join(', ')}.`;
}

/**
 * The Markdown description of one operation: its own text, then the rules the catalog fixes
 * (access, idempotency, revisions, MCP tool), so the docs page says everything a caller needs.
 */
export function describeOperation(
  operation: AnyOperation,
  options: { audience: 'http' | 'mcp'; mentionGet?: boolean },
): string {
  const parts: string[] = [];
  if (operation.description) parts.push(operation.description);
  const { roles, scopes } = operation.access;
  if (roles === 'dashboard') {
    parts.push(
      '**Dashboard only.** No API key, OAuth token or MCP client can call this operation: every such request is refused with 403 `dashboard_only` before its input is read.',
    );
  } else {
    const restricted = Object.entries(operation.access.restrictedFields ?? {})
      .map(([field, allowed]) => ` Setting \`${field}\` needs the ${allowed.join(' or ')} role.`)
      .join('');
    parts.push(
      `**Access:** scopes ${scopes.map((scope) => `\`${scope}\``).join(', ')}; roles ${roles.join(', ')}.${restricted}`,
    );
  }
  if (operation.mutation) {
    const max = operation.mutation.idempotencyKeyMax;
    // pause and rotateSecret: the contract lists idempotencyKey among the required body fields.
    const bodyKeyRequired = ((operation.input as { required?: string[] }).required ?? []).includes(
      'idempotencyKey',
    );
    parts.push(
      options.audience !== 'http'
        ? `**Idempotency:** \`idempotencyKey\` (8-${max} characters) is required; reuse the same key when retrying and the change takes effect once.`
        : bodyKeyRequired
          ? `**Idempotency:** required in the body: \`idempotencyKey\` (8-${max}); a header \`Idempotency-Key\`, if also sent, must be the same.`
          : `**Idempotency:** required: header \`Idempotency-Key\` (8-200) or body \`idempotencyKey\` (8-${max}).`,
    );
    if (operation.mutation.revision === 'required') {
      parts.push(
        '**Revision:** send `expectedRevision` (the revision last read); a different current revision answers 409 `revision_conflict` with `current_revision`, and nothing changes.',
      );
    }
    if (operation.mutation.destructive) parts.push('**Destructive:** the change cannot be undone.');
  }
  if (options.mentionGet) parts.push('Also available as `GET` with the same parameters in the query string.');
  const tool = mcpToolName(operation);
  if (tool !== undefined && options.audience === 'http') parts.push(`**MCP tool:** \`${tool}\`.`);
  return parts.join('\n\n');
}
