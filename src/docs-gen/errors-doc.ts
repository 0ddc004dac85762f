import { ERROR_CODES } from '../contract/errors.ts';
import { code, generatedNotice, table } from './markdown.ts';

type Codes = Record<string, { status: number; description: string }>;

/** docs/errors.md: the closed list of error codes, by status, as declared in src/contract/errors.ts. */
export function renderErrorsDoc(codes: Codes = ERROR_CODES): string {
  const rows = Object.entries(codes)
    .map(([name, entry], index) => ({ name, ...entry, index }))
    .sort((a, b) => a.status - b.status || a.index - b.index)
    .map((entry) => [code(entry.name), String(entry.status), entry.description]);
  return `${[
    '# Error codes',
    '',
    generatedNotice('src/contract/errors.ts'),
    '',
    'Every failure, whatever the operation or transport, answers with one body:',
    '',
    '```json',
    '{"error": {"code": "revision_conflict", "message": "expectedRevision does not match the current revision 3.",',
    '           "field": "expectedRevision", "request_id": "req_0190…", "current_revision": 3}}',
    '```',
    '',
    `- ${code('code')}: one of the codes below; stable, safe to branch on.`,
    `- ${code('message')}: for people; may change.`,
    `- ${code('field')}: the input at fault in the caller's spelling (${code('displayName')}, ${code('lines.0.quantity')},`,
    `  ${code('Idempotency-Key')}), when there is one.`,
    `- ${code('request_id')}: equals the ${code('X-Request-Id')} header; quote it when asking for help.`,
    `- Extra details are snake_case (${code('current_revision')}, ${code('allowed_roles')}, ${code('missing_scopes')}).`,
    '',
    `429 and some 409/503 answers carry ${code('Retry-After')} (seconds).`,
    '',
    table(['Code', 'Status', 'Meaning'], rows),
  ].join('\n')}\n`;
}
