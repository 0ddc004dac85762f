import type { AnyOperation } from '../define.ts';
import { archiveCard } from './archive.ts';
import { createCard } from './create.ts';
import { getCard } from './get.ts';
import { listCards } from './list.ts';
import { updateCard } from './update.ts';

export const cardOperations = [
  listCards,
  getCard,
  createCard,
  updateCard,
  archiveCard,
] as const satisfies readonly AnyOperation[];
