import type { FastifyInstance } from 'fastify';
import type { OperationInput } from '../../operations/catalog.ts';
import { toAppError } from '../../operations/error-mapping.ts';
import type { Services } from '../../services.ts';
import { formBody, safeBack } from '../forms.ts';
import { errorBox, layout } from '../layout.ts';
import { type Row, rows, str } from './components.ts';
import {
  callOperation,
  checkCsrf,
  csrfRefused,
  everyItem,
  type Signed,
  sendHtml,
  signedIn,
} from './context.ts';
import { inWords, refusalTitle } from './wording.ts';

export const BULK_PATH = '/dashboard/entries/bulk';
export const BULK_ACTIONS = ['review', 'categorise', 'both'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];
/** One page of the ledger at most; a crafted form cannot start hundreds of changes. */
const MAX_ENTRIES = 100;
const TARGET = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):(\d{1,15})$/;

interface Target {
  id: string;
  revision: number;
}

/**
 * The ledger's bulk form (and each row's category picker, a bulk of one): one `entries.update`
 * per ticked entry through the dashboard transport, each with its own idempotency key derived
 * from the form's (`<form key>-<entry id>`), so a resubmitted form replays every call instead of
 * acting twice (decision 441). The member comes back to the same filters and page with how many
 * were done and, for each that failed, its code (`?bulk=...`), which the ledger puts in words.
 */
export function registerBulkEntries(app: FastifyInstance, services: Services): void {
  app.post(BULK_PATH, async (request, reply) => {
    const signed = await signedIn(services, request);
    if (!signed) return reply.redirect('/dashboard/sign-in', 303);
    let form: URLSearchParams;
    try {
      form = formBody(request);
      checkCsrf(request, signed.token, form.get('_csrf'));
    } catch (error) {
      const { appError } = toAppError(error);
      if (appError.code === 'csrf_failed') return csrfRefused(reply, request, signed, error);
      return sendHtml(
        reply,
        appError.status,
        layout({
          title: refusalTitle(appError.code, appError.status),
          viewer: signed.viewer,
          body: errorBox(inWords(appError, signed.viewer), appError.code, request.id),
        }),
      );
    }
    const back = safeBack(form.get('_back'), '/dashboard/entries');
    const action = (BULK_ACTIONS as readonly string[]).includes(str(form.get('do')))
      ? (form.get('do') as BulkAction)
      : 'review';
    const targets = parseTargets(form.getAll('entry'));
    const categoryId = str(form.get('categoryId'));
    const outcome = new URLSearchParams({ bulk: action });
    if (targets.length === 0) outcome.set('bulkProblem', 'entries');
    else if (action !== 'review' && !categoryId) outcome.set('bulkProblem', 'category');
    else {
      const key = str(form.get('idempotencyKey')).slice(0, 100) || `dash-${request.id}`;
      const { done, failed } = await runBulk(services, signed, { action, targets, categoryId, key });
      outcome.set('bulkDone', String(done));
      if (failed.length) outcome.set('bulkFailed', failed.map((f) => `${f.id}:${f.code}`).join(','));
      if (categoryId) outcome.set('bulkCategory', categoryId);
    }
    const separator = back.includes('?') ? '&' : '?';
    return reply.redirect(`${back}${separator}${outcome.toString()}`, 303);
  });
}

function parseTargets(values: readonly string[]): Target[] {
  const seen = new Map<string, Target>();
  for (const value of values) {
    const match = TARGET.exec(value);
    if (match?.[1] && !seen.has(match[1])) seen.set(match[1], { id: match[1], revision: Number(match[2]) });
  }
  return [...seen.values()].slice(0, MAX_ENTRIES);
}

async function runBulk(
  services: Services,
  signed: Signed,
  job: { action: BulkAction; targets: readonly Target[]; categoryId: string; key: string },
): Promise<{ done: number; failed: Array<{ id: string; code: string }> }> {
  const categorise = job.action !== 'review';
  const category = categorise ? await findCategory(services, signed, job.categoryId) : undefined;
  let done = 0;
  const failed: Array<{ id: string; code: string }> = [];
  for (const target of job.targets) {
    try {
      const allocations = categorise
        ? await oneLine(services, signed, target.id, job.categoryId, category)
        : undefined;
      await callOperation(services, signed, 'entries.update', {
        id: target.id,
        expectedRevision: target.revision,
        ...(allocations ? { allocations } : {}),
        ...(job.action === 'categorise' ? {} : { reviewStatus: 'reviewed' }),
        idempotencyKey: `${job.key}-${target.id}`,
      });
      done += 1;
    } catch (error) {
      if (error instanceof SplitEntry) {
        failed.push({ id: target.id, code: error.code });
        continue;
      }
      const { appError, unexpected } = toAppError(error);
      if (unexpected)
        services.logger.error({ err: error, requestId: signed.requestId }, 'bulk entry change failed');
      failed.push({ id: target.id, code: appError.code });
    }
  }
  return { done, failed };
}

async function findCategory(services: Services, signed: Signed, id: string): Promise<Row | undefined> {
  return (await everyItem(services, signed, 'categories.list', {})).find((c) => c.id === id);
}

/** Page-only refusal: categorising a split entry would replace its lines with one. */
class SplitEntry extends Error {
  readonly code = 'entry_split';
}

/**
 * The entry's whole amount on the chosen category. A tax rate already on the entry's line is kept
 * (it came from a receipt or a person); else the category's default rate; the tax inside is
 * computed from the rate by the operation. Sending only the rate keeps a replay's input equal to
 * the first call's, so the per-entry idempotency key replays instead of mismatching.
 */
async function oneLine(
  services: Services,
  signed: Signed,
  id: string,
  categoryId: string,
  category: Row | undefined,
): Promise<NonNullable<OperationInput<'entries.update'>['allocations']>> {
  const entry = (await callOperation(services, signed, 'entries.get', { id })) as Row;
  const lines = rows(entry, 'allocations');
  if (lines.length > 1) throw new SplitEntry('split');
  const kept = str(lines[0]?.tax_rate);
  const rate = kept && kept !== '0' ? kept : str(category?.default_tax_rate);
  return [{ categoryId, amountMinor: str(entry.amount_minor), ...(rate ? { taxRate: rate } : {}) }];
}
