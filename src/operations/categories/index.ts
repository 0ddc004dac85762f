import type { AnyOperation } from '../define.ts';
import { listCategories } from './list.ts';
import { saveCategory } from './save.ts';

export const categoryOperations = [listCategories, saveCategory] as const satisfies readonly AnyOperation[];
