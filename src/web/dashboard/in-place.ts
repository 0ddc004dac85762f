import { toAppError } from '../../operations/error-mapping.ts';
import type { Services } from '../../services.ts';
import type { Signed } from './context.ts';
import { IN_PLACE } from './pages/index.ts';
import type { Refused } from './refused.ts';
import type { PageContent } from './routes.ts';

/**
 * A form whose page draws refusals in place (`IN_PLACE`: the category form on the ledger, the
 * organization settings): a client error comes back as that page, the typed values kept and the
 * message beside the field it names (or above the form), with the error's status.
 */
export async function refusedInPlace(
  services: Services,
  signed: Signed,
  requestId: string,
  operation: string,
  form: URLSearchParams | undefined,
  back: string,
  error: unknown,
): Promise<PageContent | undefined> {
  const target = IN_PLACE[operation];
  const { appError, unexpected } = toAppError(error);
  if (!target || !form || unexpected || appError.status >= 500 || appError.code === 'csrf_failed')
    return undefined;
  const url = new URL(back, 'http://dashboard.invalid');
  if (url.pathname !== target.path) return undefined;
  const values = Object.fromEntries(
    [...form.keys()].filter((k) => !k.startsWith('_')).map((k) => [k, form.get(k) ?? '']),
  );
  const refused: Refused = {
    operation,
    values,
    error: { code: appError.code, message: appError.message, field: appError.field, requestId },
  };
  const content = await target.page(
    services,
    signed,
    { params: {}, query: Object.fromEntries(url.searchParams) },
    refused,
  );
  return { ...content, status: appError.status };
}
