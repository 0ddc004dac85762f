import type { Scope } from '../../../src/contract/access.ts';
import { type Caller, createCaller, type TestApp } from '../../support/app.ts';
import { type ApiResponse, call } from '../../support/http.ts';

export const MAIL_KEY_SCOPES: readonly Scope[] = ['mail:read', 'mail:write'];

/** An organization with a member whose key carries only the mail scopes. */
export function mailCaller(
  app: TestApp,
  options: { organizationId?: string; scopes?: readonly Scope[] } = {},
) {
  return createCaller(app, { scopes: MAIL_KEY_SCOPES, ...options });
}

export const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');
export const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('page'),
]);
export const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('page two')]);

export const b64 = (bytes: Buffer): string => bytes.toString('base64');

export function op(
  app: TestApp,
  caller: Caller,
  name: string,
  input: Record<string, unknown> = {},
): Promise<ApiResponse> {
  return call(app.baseUrl, name, input, { token: caller.token });
}

/** Uploads a letter (a PDF unless files are given) and returns the response. */
export function upload(
  app: TestApp,
  caller: Caller,
  overrides: Record<string, unknown> = {},
): Promise<ApiResponse> {
  return op(app, caller, 'mail.items.upload', {
    sender: 'Revenue Agency',
    subject: 'Notice of assessment 2025',
    receivedAt: '2026-01-14T08:30:00.000Z',
    files: [{ mediaType: 'application/pdf', fileName: 'notice.pdf', contentBase64: b64(PDF) }],
    ...overrides,
  });
}

/** Events of a type recorded for the organization, oldest first, as stored. */
export async function storedEvents(app: TestApp, organizationId: string, prefix = 'mail.') {
  const rows = await app.services.db.kysely
    .selectFrom('events')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('type', 'like', `${prefix}%`)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    ...row,
    data: (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as Record<string, unknown>,
  }));
}
