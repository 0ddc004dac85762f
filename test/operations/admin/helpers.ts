import type { Caller, TestApp } from '../../support/app.ts';
import { auditRows as readAudit } from '../../support/audit.ts';
import { type ApiResponse, type CallOptions, call } from '../../support/http.ts';

/** Calls an operation as `caller`; mutations get a fresh idempotency key unless one is given. */
export function op(
  app: TestApp,
  caller: Caller,
  name: string,
  input: Record<string, unknown> = {},
  options: CallOptions = {},
): Promise<ApiResponse> {
  return call(app.baseUrl, name, input, { token: caller.token, ...options });
}

/** The organization's audit rows for one record, oldest first, as stored. */
export function auditRows(app: TestApp, organizationId: string, recordId: string) {
  return readAudit(app, { organizationId, recordId }, { orderBy: ['created_at', 'id'] });
}
