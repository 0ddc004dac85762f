import type { AnyOperation } from '../define.ts';
import { createTemplateDraft } from './create-draft.ts';
import { downloadTemplate } from './download.ts';
import { getTemplate } from './get.ts';
import { listTemplates } from './list.ts';
import { uploadTemplate } from './upload.ts';

export const templateOperations: readonly AnyOperation[] = [
  listTemplates,
  getTemplate,
  downloadTemplate,
  createTemplateDraft,
  uploadTemplate,
];
