// Typed client of the accounting service. Types come from sdk/schema.d.ts (generated from the
// OpenAPI document by `npm run sdk:generate`); this file adds what a caller should not have to
// write: the key, idempotency keys for mutations, retries, typed errors and page iterators.
// It depends only on fetch and, for webhook signatures, node:crypto (Node >= 20, Deno, Bun), and
// imports nothing outside this folder, so the folder can be copied into another project.

import { AccountingConnectionError, AccountingError } from './errors.ts';
import { OPERATIONS } from './operations.ts';
import type { components, paths } from './schema.d.ts';

export { AccountingConnectionError, AccountingError, type ErrorCode } from './errors.ts';

const PREFIX = '/api/v1/accounting/';

export type OperationName = {
  [P in keyof paths]: P extends `${typeof PREFIX}${infer N}` ? N : never;
}[keyof paths];

type PostOf<N extends OperationName> = paths[`${typeof PREFIX}${N}`]['post'];

type RawInput<N extends OperationName> =
  PostOf<N> extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;

/** The input of an operation; `idempotencyKey` is optional because the client makes one. */
export type OperationInput<N extends OperationName> =
  RawInput<N> extends { idempotencyKey?: unknown }
    ? Omit<RawInput<N>, 'idempotencyKey'> & { idempotencyKey?: string }
    : RawInput<N>;

/** What the operation returns in `data`. */
export type OperationResult<N extends OperationName> =
  PostOf<N> extends { responses: { 200: { content: { 'application/json': { data: infer D } } } } }
    ? D
    : never;

export type Schemas = components['schemas'];

type PageOf<N extends OperationName> = OperationResult<N>;
/** Operations answering `{ items, nextOffset }` or `{ items, nextCursor }`. */
export type PaginatedOperation = {
  [N in OperationName]: PageOf<N> extends { items: unknown[]; nextOffset: number | null }
    ? N
    : PageOf<N> extends { items: unknown[]; nextCursor: string | null }
      ? N
      : never;
}[OperationName];
export type ItemOf<N extends PaginatedOperation> = PageOf<N> extends { items: Array<infer I> } ? I : never;
type PageInput<N extends PaginatedOperation> = Omit<OperationInput<N>, 'offset' | 'cursor'>;

export interface ClientOptions {
  /** Where the service runs, e.g. `https://accounting.example.com`. */
  baseUrl: string;
  /** An API key (`ak_...`) or OAuth access token. Keep it on a trusted backend. */
  apiKey: string;
  /** Sent as X-Accounting-Organization; must match the credential's organization. */
  organizationId?: string;
  /** Retries after 429, 503, in-progress idempotency keys and network errors (default 3). */
  maxRetries?: number;
  /** First back-off delay when the service gives no Retry-After (default 250 ms, doubling). */
  retryDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown (default 60 s). */
  maxRetryAfterMs?: number;
  fetch?: typeof fetch;
  /** Makes idempotency keys (default: `sdk-` and a random UUID). */
  newIdempotencyKey?: () => string;
}

export interface CallOptions {
  /** The idempotency key of a mutation; reuse it to retry the same change later. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface CallResult<T> {
  data: T;
  requestId: string | undefined;
  /** True when the service answered with the stored result of an earlier identical request. */
  replayed: boolean;
}

type Args<N extends OperationName> =
  object extends OperationInput<N>
    ? [input?: OperationInput<N>, options?: CallOptions]
    : [input: OperationInput<N>, options?: CallOptions];

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

export class AccountingClient {
  private readonly options: Required<Omit<ClientOptions, 'organizationId'>> & { organizationId?: string };

  constructor(options: ClientOptions) {
    this.options = {
      maxRetries: 3,
      retryDelayMs: 250,
      maxRetryAfterMs: 60_000,
      fetch: globalThis.fetch.bind(globalThis),
      newIdempotencyKey: () => `sdk-${globalThis.crypto.randomUUID()}`,
      ...options,
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
    };
  }

  /** Calls an operation and returns its `data`; failures throw AccountingError. */
  async call<N extends OperationName>(operation: N, ...args: Args<N>): Promise<OperationResult<N>> {
    return (await this.request(operation, ...args)).data;
  }

  /** Like `call`, with the request id and whether the answer was an idempotent replay. */
  async request<N extends OperationName>(
    operation: N,
    ...[input, options = {}]: Args<N>
  ): Promise<CallResult<OperationResult<N>>> {
    const meta = OPERATIONS[operation as keyof typeof OPERATIONS] as { mutation: boolean } | undefined;
    const body: Record<string, unknown> = { ...(input ?? {}) };
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.options.apiKey}`,
      'content-type': 'application/json',
      accept: 'application/json',
    };
    if (this.options.organizationId) headers['x-accounting-organization'] = this.options.organizationId;
    if (meta?.mutation) {
      // One key per logical call, kept across retries: a retry can never apply the change twice.
      const key =
        options.idempotencyKey ??
        (typeof body.idempotencyKey === 'string' ? body.idempotencyKey : this.options.newIdempotencyKey());
      body.idempotencyKey = key;
      headers['idempotency-key'] = key;
    }
    const response = await this.send(`${this.options.baseUrl}${PREFIX}${operation}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const parsed = (await response.json()) as { data: OperationResult<N> };
    return {
      data: parsed.data,
      requestId: response.headers.get('x-request-id') ?? undefined,
      replayed: response.headers.get('idempotent-replayed') === 'true',
    };
  }

  /** Every item of an offset or cursor list, fetching pages as the loop goes. */
  async *paginate<N extends PaginatedOperation>(
    operation: N,
    input?: PageInput<N>,
    options: { signal?: AbortSignal } = {},
  ): AsyncGenerator<ItemOf<N>, void, undefined> {
    for await (const page of this.pages(operation, input, options)) {
      yield* (page as { items: ItemOf<N>[] }).items;
    }
  }

  /** Every page of an offset list (`nextOffset`) or cursor list (`nextCursor`). */
  async *pages<N extends PaginatedOperation>(
    operation: N,
    input?: PageInput<N>,
    options: { signal?: AbortSignal } = {},
  ): AsyncGenerator<OperationResult<N>, void, undefined> {
    let next: Record<string, unknown> = { ...(input ?? {}) };
    for (;;) {
      const call = this.call as (name: string, input: object, options: CallOptions) => Promise<unknown>;
      const page = (await call.call(this, operation, next, options)) as {
        nextOffset?: number | null;
        nextCursor?: string | null;
      };
      yield page as OperationResult<N>;
      if (typeof page.nextCursor === 'string') next = { ...input, cursor: page.nextCursor };
      else if (typeof page.nextOffset === 'number') next = { ...input, offset: page.nextOffset };
      else return;
    }
  }

  /**
   * Sends with retries. Every call is safe to repeat (reads change nothing; mutations carry an
   * idempotency key), so network errors, 503 and an in-progress key are retried as well as 429.
   */
  private async send(url: string, init: RequestInit): Promise<Response> {
    const { maxRetries, retryDelayMs, maxRetryAfterMs } = this.options;
    for (let attempt = 0; ; attempt += 1) {
      const backoff = retryDelayMs * 2 ** attempt;
      let response: Response;
      try {
        response = await this.options.fetch(url, init);
      } catch (error) {
        if (init.signal?.aborted || attempt >= maxRetries) {
          throw new AccountingConnectionError(`Could not reach ${url}`, { cause: error });
        }
        await sleep(backoff, init.signal ?? undefined);
        continue;
      }
      if (response.ok) return response;
      const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
      const error = new AccountingError(response.status, body, response.headers);
      const retryable =
        error.status === 429 ||
        error.status === 503 ||
        (error.status === 409 && error.code === 'idempotency_in_progress');
      const waitMs = error.retryAfterSeconds === undefined ? backoff : error.retryAfterSeconds * 1000;
      if (!retryable || attempt >= maxRetries || waitMs > maxRetryAfterMs) throw error;
      await sleep(waitMs, init.signal ?? undefined);
    }
  }
}

export function createAccountingClient(options: ClientOptions): AccountingClient {
  return new AccountingClient(options);
}

export { type SignatureCheck, type VerifyInput, verifySignature } from './webhook-signature.ts';
