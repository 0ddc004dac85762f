/** Scopes a credential can carry (contract, Authentication). */
export const ACCOUNTING_SCOPES = ['accounting:read', 'accounting:write', 'accounting:admin'] as const;
/**
 * Company-mail scopes exist so a key can be granted them explicitly later;
 * the default accounting scopes never include them (contract, Authentication 3).
 */
export const MAIL_SCOPES = ['mail:read', 'mail:write'] as const;
export const ALL_SCOPES = [...ACCOUNTING_SCOPES, ...MAIL_SCOPES] as const;
export type Scope = (typeof ALL_SCOPES)[number];

export const ROLES = ['admin', 'finance'] as const;
export type Role = (typeof ROLES)[number];

export const MEMBER_STATUSES = ['active', 'suspended', 'removed'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

export function isScope(value: string): value is Scope {
  return (ALL_SCOPES as readonly string[]).includes(value);
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
