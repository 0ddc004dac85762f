import type { AnyOperation } from '../define.ts';
import { listAliases } from './aliases-list.ts';
import { attachMatch } from './attach.ts';
import { detachMatch } from './detach.ts';
import { listReceiptConsolidationCandidates } from './receipt-consolidation-candidates.ts';
import { confirmReceiptConsolidation } from './receipt-consolidation-confirm.ts';
import { previewReceiptConsolidation } from './receipt-consolidation-preview.ts';
import { getMatchingSettings } from './settings-get.ts';
import { updateMatchingSettings } from './settings-update.ts';
import { confirmSuggestion } from './suggestions-confirm.ts';
import { declineSuggestion } from './suggestions-decline.ts';
import { listSuggestions } from './suggestions-list.ts';
import { reopenSuggestion } from './suggestions-reopen.ts';

export const matchingOperations = [
  listSuggestions,
  confirmSuggestion,
  declineSuggestion,
  reopenSuggestion,
  attachMatch,
  detachMatch,
  listAliases,
  getMatchingSettings,
  updateMatchingSettings,
  listReceiptConsolidationCandidates,
  previewReceiptConsolidation,
  confirmReceiptConsolidation,
] as const satisfies readonly AnyOperation[];
