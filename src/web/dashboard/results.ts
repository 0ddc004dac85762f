import { type Html, html } from '../html.ts';

/**
 * Results that hold a secret shown once (a webhook signing secret, an API key): shown on the
 * answer to the form itself, never stored for a later page, never in a URL. Other actions
 * redirect back with a notice. The copy button is shown by the page script (it needs the
 * clipboard); without script the text is still there to select.
 */
export function resultPage(
  operation: string,
  data: unknown,
  back: string,
): { title: string; body: Html } | undefined {
  const record = (data ?? {}) as Record<string, unknown>;
  const secret = (title: string, what: string, value: unknown) => ({
    title,
    body: html`<section class="card"><p>${what} It is shown <strong>only this once</strong>: copy it now and keep it in your secret store.</p>
<p class="secret" id="secret-value" aria-label="${title}">${String(value ?? '')}</p>
<p><button type="button" class="secondary" data-copy="secret-value" hidden>Copy to clipboard</button> <span role="status" data-copy-status="secret-value"></span></p>
<p><a class="button" href="${back}">I have copied it</a></p></section>`,
  });
  switch (operation) {
    case 'webhooks.endpoints.create':
      return secret(
        'Endpoint created: its signing secret',
        'Your receiver verifies signatures with this secret.',
        record.secret,
      );
    case 'webhooks.endpoints.rotateSecret':
      return secret('New signing secret', 'Every later delivery is signed with this secret.', record.secret);
    case 'admin.apiKeys.create':
      return secret('API key created', 'Send it as Authorization: Bearer <key>.', record.secret);
    default:
      return undefined;
  }
}

/** Actions whose natural next page is the record they started (a statement import's progress). */
export function nextPage(operation: string, data: unknown): string | undefined {
  const record = data as { id?: unknown; job?: { id?: unknown }; item?: { id?: unknown } } | null;
  const id =
    operation === 'transactions.imports.create' || operation === 'entries.export'
      ? record?.job?.id
      : operation === 'contractors.create'
        ? record?.id
        : record?.item?.id;
  if (typeof id !== 'string' || !/^[0-9a-f-]{36}$/.test(id)) return undefined;
  if (operation === 'transactions.imports.create') return `/dashboard/transactions/imports/${id}`;
  if (operation === 'entries.export') return `/dashboard/entries/exports/${id}`;
  // The same bytes again return the item already in the inbox: its page says so.
  if (operation === 'receipts.upload')
    return `/dashboard/receipts/${id}${(data as { duplicate?: unknown }).duplicate === true ? '?duplicate=1' : ''}`;
  // A new contractor's page offers the portal invitation next.
  if (operation === 'contractors.create') return `/dashboard/contractors/${id}`;
  return undefined;
}
