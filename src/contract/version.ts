/** The contract date every response reports in `X-Accounting-API-Version`. */
export const API_VERSION = '2026-09-22';
/** The interface description version; also the OpenAPI document's `info.version`. */
export const SPEC_VERSION = '1.2.0';
export const API_PREFIX = '/api/v1/accounting';
/**
 * Contract dates a client may pin with the request header `X-Accounting-API-Version`
 * (docs/versioning.md). Oldest first; the last is the current one.
 */
export const SUPPORTED_API_VERSIONS: readonly string[] = [API_VERSION];
