import type { AnyOperation } from '../define.ts';
import { createOrganizationApiKey } from './api-keys-create.ts';
import { listOrganizationApiKeys } from './api-keys-list.ts';
import { revokeOrganizationApiKey } from './api-keys-revoke.ts';
import { listAuditLog } from './audit-log-list.ts';
import { listMailOutbox } from './mail-outbox-list.ts';
import { addOrganizationMember } from './members-add.ts';
import { listOrganizationMembers } from './members-list.ts';
import { reinstateOrganizationMember } from './members-reinstate.ts';
import { removeOrganizationMember } from './members-remove.ts';
import { suspendOrganizationMember } from './members-suspend.ts';
import { updateOrganizationMember } from './members-update.ts';
import { getOrganization } from './organization-get.ts';
import { updateOrganizationSettings } from './organization-update.ts';

export const adminOperations = [
  getOrganization,
  updateOrganizationSettings,
  listOrganizationMembers,
  addOrganizationMember,
  updateOrganizationMember,
  suspendOrganizationMember,
  removeOrganizationMember,
  reinstateOrganizationMember,
  listOrganizationApiKeys,
  createOrganizationApiKey,
  revokeOrganizationApiKey,
  listAuditLog,
  listMailOutbox,
] as const satisfies readonly AnyOperation[];
