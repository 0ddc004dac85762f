import { AppError } from '../contract/errors.ts';
import type { Principal } from './context.ts';
import type { AnyOperation } from './define.ts';

/** Scopes first, then role: a key without the scope learns nothing about roles. */
export function checkAccess(operation: AnyOperation, principal: Principal): void {
  const { roles, scopes } = operation.access;
  if (roles === 'dashboard') {
    throw new AppError('dashboard_only', `${operation.name} can only be confirmed from the dashboard.`);
  }
  const missing = scopes.filter((scope) => !principal.scopes.has(scope));
  if (missing.length > 0) {
    throw new AppError('insufficient_scope', `The credential lacks the scope ${missing.join(', ')}.`, {
      details: { required_scopes: scopes, missing_scopes: missing },
    });
  }
  if (!roles.includes(principal.role)) {
    throw new AppError('role_not_allowed', `The ${principal.role} role may not call ${operation.name}.`, {
      details: { allowed_roles: roles },
    });
  }
}

/** Fields only some roles may send (checked after validation, so the field's presence is known). */
export function checkRestrictedFields(
  operation: AnyOperation,
  principal: Principal,
  input: Record<string, unknown>,
): void {
  for (const [field, roles] of Object.entries(operation.access.restrictedFields ?? {})) {
    if (input[field] !== undefined && !roles.includes(principal.role)) {
      throw new AppError('role_not_allowed', `Only the ${roles.join(' or ')} role may change ${field}.`, {
        field,
        details: { allowed_roles: roles },
      });
    }
  }
}
