import type { Kysely } from 'kysely';
import type { Role, Scope } from '../contract/access.ts';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import type { MailMessage } from '../mail/message.ts';
import type { Services } from '../services.ts';

/** Who is calling: always a member of one organization, through one credential. */
export interface Principal {
  organizationId: string;
  memberId: string;
  role: Role;
  scopes: ReadonlySet<Scope>;
  credentialId: string;
  credentialType: 'api_key' | 'oauth';
}

export interface AuditEntry {
  recordType: string;
  recordId: string;
  beforeRevision: number | null;
  afterRevision: number | null;
}

/** An event to record in the outbox; the envelope (id, created, organizationId) is added by the recorder. */
export interface EventInput {
  type: string;
  subject: { type: string; id: string } | null;
  data: Record<string, unknown>;
}

/**
 * What an operation sees. `db` is the request's transaction for mutations (so the change, its audit
 * row, its events, its mail and its idempotency record commit or roll back together) and the plain
 * database handle for reads. Operations never see HTTP or MCP details.
 */
export interface OperationContext {
  organizationId: string;
  principal: Principal;
  requestId: string;
  operation: string;
  db: Kysely<Database>;
  clock: Clock;
  services: Services;
  audit(entry: AuditEntry): Promise<void>;
  emit(event: EventInput): Promise<void>;
  /** Queues mail in the transactional outbox; it is sent after commit (or kept, without SMTP). */
  sendMail(message: MailMessage): Promise<void>;
  /** Runs after a successful commit (never on rollback); failures there are logged, not raised. */
  afterCommit(task: () => Promise<void> | void): void;
}
