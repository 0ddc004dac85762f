/**
 * Who a unit of work acts for. Every audit row names one: a member (through a credential of the
 * API or MCP, or a dashboard session with credential `session:<id>`), a background job, a
 * contractor (the portal, where the invitation link is the only credential), or the operator at the command line (whoever can run
 * `accounting` already controls the database; the OS user name is recorded, as told, not proven).
 */
export type Actor =
  | { type: 'member'; memberId: string; credentialId: string }
  | { type: 'job'; job: string }
  | { type: 'contractor'; contractorId: string }
  | { type: 'operator'; user: string };

/** The audit columns an actor fills: `actor_type`, `actor_id`, `credential_id`. */
export function auditActor(actor: Actor): {
  actor_type: string;
  actor_id: string;
  credential_id: string | null;
} {
  switch (actor.type) {
    case 'member':
      return { actor_type: 'member', actor_id: actor.memberId, credential_id: actor.credentialId };
    case 'job':
      return { actor_type: 'system', actor_id: `job:${actor.job}`, credential_id: null };
    case 'contractor':
      return { actor_type: 'contractor', actor_id: actor.contractorId, credential_id: null };
    case 'operator':
      return { actor_type: 'operator', actor_id: `operator:${actor.user}`, credential_id: null };
  }
}

/** The way a change came in, as its audit row records it. */
export type Transport = 'http' | 'mcp' | 'cli' | 'job' | 'portal' | 'dashboard';

/** Jobs and the portal are their own transports; a member's change came over the API unless told. */
export function defaultTransport(actor: Actor): Transport {
  switch (actor.type) {
    case 'member':
      return 'http';
    case 'job':
      return 'job';
    case 'contractor':
      return 'portal';
    case 'operator':
      return 'cli';
  }
}
