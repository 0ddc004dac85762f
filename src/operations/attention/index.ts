import type { AnyOperation } from '../define.ts';
import { attentionMine } from './mine.ts';

export const attentionOperations: readonly AnyOperation[] = [attentionMine];
