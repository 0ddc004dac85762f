import type { AnyOperation } from '../define.ts';
import { createContractor } from './create.ts';
import { updateContractorEmail } from './email-update.ts';
import { getContractor } from './get.ts';
import { invitationLink } from './invitations-link.ts';
import { listInvitations } from './invitations-list.ts';
import { revokeInvitation } from './invitations-revoke.ts';
import { inviteContractor } from './invite.ts';
import { listContractors } from './list.ts';
import { reviewTaxProfile } from './tax-profile-review.ts';
import { createTemplateDraft } from './templates-create-draft.ts';
import { downloadTemplate } from './templates-download.ts';
import { getTemplate } from './templates-get.ts';
import { listTemplates } from './templates-list.ts';
import { uploadTemplate } from './templates-upload.ts';
import { updateContractor } from './update.ts';

export const contractorOperations: readonly AnyOperation[] = [
  listContractors,
  getContractor,
  createContractor,
  updateContractor,
  updateContractorEmail,
  reviewTaxProfile,
];

export const invitationOperations: readonly AnyOperation[] = [
  inviteContractor,
  listInvitations,
  revokeInvitation,
  invitationLink,
];

export const templateOperations: readonly AnyOperation[] = [
  listTemplates,
  getTemplate,
  downloadTemplate,
  createTemplateDraft,
  uploadTemplate,
];
