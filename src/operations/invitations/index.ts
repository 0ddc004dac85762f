import type { AnyOperation } from '../define.ts';
import { inviteContractor } from './invite.ts';
import { invitationLink } from './link.ts';
import { listInvitations } from './list.ts';
import { revokeInvitation } from './revoke.ts';

export const invitationOperations: readonly AnyOperation[] = [
  inviteContractor,
  listInvitations,
  revokeInvitation,
  invitationLink,
];
