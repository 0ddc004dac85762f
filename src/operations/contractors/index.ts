import type { AnyOperation } from '../define.ts';
import { createContractor } from './create.ts';
import { updateContractorEmail } from './email-update.ts';
import { getContractor } from './get.ts';
import { listContractors } from './list.ts';
import { reviewTaxProfile } from './tax-profile-review.ts';
import { updateContractor } from './update.ts';

export const contractorOperations: readonly AnyOperation[] = [
  listContractors,
  getContractor,
  createContractor,
  updateContractor,
  updateContractorEmail,
  reviewTaxProfile,
];
