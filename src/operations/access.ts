import { AppError } from '../contract/errors.ts';
import type { Principal } from './context.ts';
import type { AnyOperation } from './define.ts';

/** Scopes first, then role: a key without the scope learns nothing about roles. */
export function checkAccess(operation: AnyOperation, principal: Principal): void {
  const { access } = operation;
  const { scopes } = access;
  // A dashboard-only operation is refused to every credential but a dashboard session, before
  // anything else is said about it; a session then meets the roles the operation names.
  if (access.roles === 'dashboard' && principal.credentialType !== 'session') {
    throw new AppError('dashboard_only', `${operation.name} is available only from the dashboard.`);
  }
  const roles = access.roles === 'dashboard' ? access.dashboardRoles : access.roles;
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
