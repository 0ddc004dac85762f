import assert from 'node:assert/strict';
import { API_VERSION } from '../../src/contract/version.ts';
import type { ApiResponse } from './http.ts';

/** Headers the contract puts on every response, failures included. */
export function assertCommonHeaders(res: ApiResponse, context = ''): void {
  assert.match(res.headers.get('x-request-id') ?? '', /^req_[0-9a-f]{32}$/, `${context} X-Request-Id`);
  assert.equal(res.headers.get('x-accounting-api-version'), API_VERSION, `${context} API version`);
}

/** A failure with the given status and code, in the one error body, with the common headers. */
export function assertError(res: ApiResponse, status: number, code: string, context = ''): void {
  const label = `${context} -> ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
  assert.equal(res.status, status, label);
  assert.equal(res.error?.code, code, label);
  assert.equal(typeof res.error.message, 'string', label);
  assert.equal(res.error.request_id, res.headers.get('x-request-id'), label);
  assertCommonHeaders(res, context);
}
