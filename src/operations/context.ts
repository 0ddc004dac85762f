import type { Role, Scope } from '../contract/access.ts';
import type { Services } from '../services.ts';
import type { UnitOfWork } from '../unit/unit-of-work.ts';
import type { StreamedUpload } from './uploads.ts';

/** Who is calling: always a member of one organization, through one credential. */
export interface Principal {
  organizationId: string;
  memberId: string;
  role: Role;
  scopes: ReadonlySet<Scope>;
  credentialId: string;
  /** `session`: a member signed in to the dashboard (credentialId `session:<id>`). */
  credentialType: 'api_key' | 'oauth' | 'session';
  /**
   * The transport already counted this request against the credential's limit (MCP over HTTP
   * counts every request at its door, tool calls included), so `invoke` does not count it again.
   */
  requestCounted?: boolean;
}

export type { EventInput } from '../events/input.ts';
export type { AuditEntry } from '../unit/unit-of-work.ts';

/**
 * What an operation sees: the unit of work (src/unit/) plus who is calling. `db` is the request's
 * transaction for mutations (so the change, its audit row, its events, its mail and its
 * idempotency record commit or roll back together) and the plain database handle for reads.
 * Operations never see HTTP or MCP details.
 */
export interface OperationContext extends UnitOfWork {
  principal: Principal;
  /** The composition root, for operations that need a setting; domain code never receives it. */
  services: Services;
  /** The file field the HTTP transport streamed, if it did (`uploadedFile`). */
  upload?: StreamedUpload;
}
