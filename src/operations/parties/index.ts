import type { AnyOperation } from '../define.ts';
import { createParty } from './create.ts';
import { getParty } from './get.ts';
import { listParties } from './list.ts';
import { updateParty } from './update.ts';

export const partyOperations = [
  listParties,
  getParty,
  createParty,
  updateParty,
] as const satisfies readonly AnyOperation[];
