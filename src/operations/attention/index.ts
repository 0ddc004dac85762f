import type { AnyOperation } from '../define.ts';
import { attentionMine } from './mine.ts';

export const attentionOperations = [attentionMine] as const satisfies readonly AnyOperation[];
