/** The contract date every response reports in `X-Accounting-API-Version`. */
export const API_VERSION = '2026-09-22';
/** The interface description version; also the OpenAPI document's `info.version`. */
export const SPEC_VERSION = '1.2.0';
export const API_PREFIX = '/api/v1/accounting';
