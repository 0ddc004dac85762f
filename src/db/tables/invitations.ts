import type { Timestamp } from './types.ts';

/**
 * One portal invitation. Only the SHA-256 of its link token is stored; the token itself is
 * HMAC(instance secret, invitation id), so the link can be shown again (src/invitations/token.ts).
 */
export interface ContractorInvitationsTable {
  id: string;
  organization_id: string;
  contractor_id: string;
  /** The contractor's email when the invitation was sent. */
  email: string;
  /** Hex SHA-256 of the link token; unique, the portal finds the invitation by it. */
  token_hash: string;
  /**
   * Stored state: 'open', 'accepted', 'revoked', 'replaced', or 'expired' (written only when an
   * already expired open invitation is closed by a new one). An 'open' row past `expires_at` is
   * reported as expired (src/invitations/rules.ts).
   */
  status: string;
  expires_at: Timestamp;
  accepted_at: Timestamp | null;
  revoked_at: Timestamp | null;
  replaced_at: Timestamp | null;
  /** Member id of whoever sent it. */
  created_by: string;
  revision: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Per-installation secrets and settings (not per organization), key -> value. */
export interface InstanceSettingsTable {
  key: string;
  value: string;
  created_at: Timestamp;
}

export interface InvitationTables {
  contractor_invitations: ContractorInvitationsTable;
  instance_settings: InstanceSettingsTable;
}
