/**
 * The closed list of error codes. Each entry is the one place a code is declared:
 * its HTTP status and what it means (this text is published in docs/errors.md).
 * `keyof typeof ERROR_CODES` keeps every use exhaustive: a new code needs a status here.
 */
export const ERROR_CODES = {
  invalid_json: { status: 400, description: 'The body is not valid JSON, or not a JSON object.' },
  invalid_input: {
    status: 400,
    description: 'A field is missing, has the wrong type, or breaks a format or bound; `field` names it.',
  },
  unknown_field: {
    status: 400,
    description: 'The body has a field the operation does not accept; `field` names it.',
  },
  unknown_parameter: {
    status: 400,
    description: 'The query string has a parameter the operation does not accept; `field` names it.',
  },
  idempotency_key_required: {
    status: 400,
    description: 'A mutation was sent without `Idempotency-Key` header or body `idempotencyKey`.',
  },
  idempotency_key_mismatch: {
    status: 400,
    description: 'The `Idempotency-Key` header and the body `idempotencyKey` differ.',
  },
  idempotency_key_reused: {
    status: 400,
    description:
      'The idempotency key was already used for a different request (other operation or other parameters).',
  },
  unsupported_api_version: {
    status: 400,
    description:
      '`X-Accounting-API-Version` names a contract date this service does not follow; `supported_versions` lists those it does.',
  },
  invalid_file: {
    status: 400,
    description: 'An uploaded file is empty, not valid base64, or its content does not match its media type.',
  },
  not_consolidatable: {
    status: 400,
    description:
      'The receipt entry and the target entry do not document one purchase (no shared order, no provider receipt settled by a card charge), or no bank or card transaction is matched to either side yet (a confirmation names 1-20), so no consolidation is offered.',
  },
  missing_credential: { status: 401, description: 'No `Authorization: Bearer` credential was sent.' },
  invalid_credential: {
    status: 401,
    description: 'The credential is unknown, revoked, expired or malformed.',
  },
  organization_mismatch: {
    status: 403,
    description: "`X-Accounting-Organization` does not match the credential's organization.",
  },
  membership_inactive: {
    status: 403,
    description: "The credential's member is suspended or removed from the organization.",
  },
  organization_suspended: {
    status: 403,
    description:
      'The organization is suspended by the operator (`accounting orgs suspend`): its keys, sessions and portal stop until it is reinstated.',
  },
  insufficient_scope: { status: 403, description: 'The credential lacks a scope the operation requires.' },
  role_not_allowed: {
    status: 403,
    description: "The member's role may not perform this operation (or change this field).",
  },
  dashboard_only: {
    status: 403,
    description:
      'The operation is available only from the dashboard, never to API keys, OAuth tokens or MCP.',
  },
  csrf_failed: {
    status: 403,
    description:
      'A dashboard form came without its session security token, or from another site; reload the page and send it again.',
  },
  unknown_operation: { status: 404, description: 'No operation has this name.' },
  not_found: {
    status: 404,
    description:
      "The record does not exist in the caller's organization; `field` names the id when it came from the input.",
  },
  method_not_allowed: {
    status: 405,
    description:
      'A method the operation does not answer: GET or HEAD on a mutation or a POST-only read, or anything other than GET, HEAD and POST. `Allow` lists the accepted methods.',
  },
  revision_conflict: {
    status: 409,
    description:
      "`expectedRevision` no longer matches; `current_revision` carries the record's revision. Reload, check and retry.",
  },
  idempotency_in_progress: {
    status: 409,
    description: 'A request with the same idempotency key is still running; retry after it finishes.',
  },
  email_taken: { status: 409, description: 'Another contractor in the organization already has this email.' },
  job_role_inactive: { status: 409, description: 'The job role exists but is not active.' },
  unpaid_not_acknowledged: {
    status: 409,
    description: 'Deactivating a contractor with unpaid hours or payments needs `acknowledgeUnpaid: true`.',
  },
  contractor_joined: {
    status: 409,
    description: 'The contractor has already joined the portal; no invitation can be sent.',
  },
  contractor_inactive: {
    status: 409,
    description: "The contractor's portal access is off; turn it on before inviting.",
  },
  invitation_not_open: {
    status: 409,
    description: 'The invitation was already accepted, revoked, replaced or has expired.',
  },
  invalid_state: {
    status: 409,
    description: "The record's state does not allow this action; `error.state` tells the current state.",
  },
  // contractor work (hours, agreements, payouts: docs/contractors.md)
  hours_not_submitted: {
    status: 409,
    description:
      'The hours were already approved, rejected or paid; only submitted hours can be updated, approved or rejected. `error.status` tells the current state.',
  },
  rate_missing: {
    status: 409,
    description:
      'The contractor has no job role, so there is no hourly rate or currency; assign one with contractorOps.roles.assign first.',
  },
  agreement_already_signed: {
    status: 409,
    description: 'The agreement is already signed; it cannot be signed again.',
  },
  agreement_voided: {
    status: 409,
    description: 'The agreement was voided; it can no longer be signed or voided again. Send a new one.',
  },
  payout_empty: {
    status: 409,
    description:
      'The payout would be empty: no approved hours in its period and no fixed amounts. Approve hours or add `fixedAmounts`.',
  },
  payout_already_paid: {
    status: 409,
    description: 'The payout is already marked paid.',
  },
  // administration
  member_email_taken: {
    status: 409,
    description:
      'Another member of the organization (in any status, removed included) already has this email.',
  },
  last_admin: {
    status: 409,
    description:
      'The change would leave the organization without an active admin (suspending, removing or demoting the last one).',
  },
  scope_not_held: {
    status: 403,
    description:
      'A new API key may carry only scopes the credential creating it holds; `field` is `scopes`, `missing_scopes` lists the others.',
  },
  // invoicing
  party_email_taken: {
    status: 409,
    description: 'Another party in the organization already has this email (compared case-insensitively).',
  },
  party_email_missing: {
    status: 409,
    description: 'The party has no email address, so the invoice cannot be sent; add one to the party first.',
  },
  unsupported_currency: {
    status: 400,
    description: 'The currency is not a supported ISO 4217 code (uppercase, e.g. `CAD`); `field` names it.',
  },
  invalid_quantity: {
    status: 400,
    description: 'A line quantity is zero or not a decimal with at most 9 integer and 4 fraction digits.',
  },
  invalid_tax_rate: {
    status: 400,
    description: 'A tax rate is not a percentage from 0 to 100 with at most 4 fraction digits.',
  },
  amount_overflow: {
    status: 400,
    description: 'A computed line or invoice amount would exceed 9007199254740991 minor units.',
  },
  payment_exceeds_balance: {
    status: 409,
    description:
      "The payment is larger than the invoice's open balance; `error.balance_minor` tells the balance.",
  },
  payment_not_allowed: {
    status: 409,
    description: 'Payments are recorded on sent invoices only; `error.state` tells the current status.',
  },
  // books
  allocations_unbalanced: {
    status: 400,
    description:
      "An entry's allocations do not sum to its amount; `error.amount_minor` and `error.sum_minor` tell both.",
  },
  category_code_taken: {
    status: 409,
    description: 'Another category of the organization already has this code.',
  },
  // contractors (roles, templates)
  job_role_name_taken: {
    status: 409,
    description: 'Another job role in the organization already has this name.',
  },
  // invitations
  no_open_invitation: {
    status: 404,
    description:
      'The contractor has no open invitation (none sent, or the last one was accepted, revoked or expired); `latest_status` tells which.',
  },
  // webhooks
  webhook_url_not_allowed: {
    status: 400,
    description:
      'The webhook URL is refused: it must be https on port 443 or 8443 to a public host (`http://localhost` only where the operator allows it), without user name or password; `error.reason` says which rule failed.',
  },
  unknown_event_type: {
    status: 400,
    description:
      'An `events` pattern names no event type of the catalog (or a group no type belongs to); `field` names it (`events.2`).',
  },
  // mcp
  origin_not_allowed: {
    status: 403,
    description:
      'A browser request to `/mcp` came from a web origin other than this service or a local development origin.',
  },
  // schedules (recurring invoices, payment plans)
  installments_sum_mismatch: {
    status: 400,
    description:
      "Custom installments must sum exactly to the invoice's balance; `error.balance_minor` and `error.sum_minor` tell both.",
  },
  payment_plan_exists: {
    status: 409,
    description:
      'The invoice already has an active or paused payment plan (`error.plan_id`); cancel it before creating another.',
  },
  mail_scan_purged: {
    // 404, not 409: reads answer it too, and the file is gone for good (410 is not among the contract's statuses).
    status: 404,
    description:
      "The letter's files were deleted by the organization's scan retention; the letter's record and its reads remain.",
  },
  consolidation_stale: {
    status: 409,
    description:
      'The consolidation confirmation no longer matches the current preview (`reason`: fingerprint_mismatch, mode_mismatch, transactions_mismatch or evidence_not_current); read matching.receiptConsolidation.preview again and review it.',
  },
  payload_too_large: {
    status: 413,
    description:
      "The body exceeds the operation's size limit (or a route's, for a caller not yet known); `error.limit_bytes` names the limit.",
  },
  unsupported_media_type: { status: 415, description: 'A POST body must be `application/json`.' },
  rate_limited: {
    status: 429,
    description: 'Too many requests for this credential; retry after `Retry-After` seconds.',
  },
  invitation_limit_reached: {
    status: 429,
    description:
      'Three invitations were already sent to this contractor in the last 24 hours; `Retry-After` tells when the next is allowed.',
  },
  replay_unavailable: {
    status: 409,
    description:
      'The first request with this idempotency key took effect, but its stored answer (which holds a secret) was sealed with a key this server no longer has (`ACCOUNTING_SECRET_KEY` changed). Read the record instead; for a webhook secret, rotate it to get a new one.',
  },
  internal_error: {
    status: 500,
    description: 'An unexpected failure; the request id identifies it in the logs. Nothing was changed.',
  },
  service_unavailable: {
    status: 503,
    description: 'The database (or the rate limit store, REDIS_URL) is unavailable; retry later.',
  },
  oauth_unavailable: {
    status: 503,
    description:
      "The OAuth issuer's key set (JWKS) could not be fetched, so the access token could not be checked; retry later (`Retry-After`). API keys are not affected.",
  },
} as const satisfies Record<
  string,
  { status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 429 | 500 | 503; description: string }
>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ErrorOptions {
  /** The input field at fault, in the caller's spelling (camelCase, dotted for nested, e.g. `lines.0.quantity`). */
  field?: string;
  /** Extra machine-readable facts, snake_case keys (e.g. `current_revision`). */
  details?: Record<string, unknown>;
  /** Seconds for `Retry-After` (429 and some 409/503). */
  retryAfterSeconds?: number;
}

/** A failure the caller can act on; anything else that is thrown becomes `internal_error`. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly field: string | undefined;
  readonly details: Record<string, unknown> | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, message: string, options: ErrorOptions = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.field = options.field;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }
}

/** The one error body of every failure: `{ error: { code, message, field?, request_id, ...details } }`. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; field?: string; request_id: string; [detail: string]: unknown };
}

export function errorBody(error: AppError, requestId: string): ErrorBody {
  return {
    error: {
      ...(error.details ?? {}),
      code: error.code,
      message: error.message,
      ...(error.field === undefined ? {} : { field: error.field }),
      request_id: requestId,
    },
  };
}

export function notFound(what: string, field?: string): AppError {
  return new AppError('not_found', `${what} not found.`, field === undefined ? {} : { field });
}

export function revisionConflict(current: number): AppError {
  return new AppError(
    'revision_conflict',
    `expectedRevision does not match the current revision ${current}.`,
    {
      field: 'expectedRevision',
      details: { current_revision: current },
    },
  );
}
