import { assertMatchesOpenApi } from './openapi-validator.ts';

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  /** `body.data` of a success, for brevity in tests. */
  data: T extends { data: infer D } ? D : Record<string, unknown> & { [key: string]: unknown };
  error: { code: string; message: string; field?: string; request_id: string; [key: string]: unknown };
}

export interface CallOptions {
  token?: string | null;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  /** Raw body instead of JSON-encoding `input`; a Buffer is sent byte for byte (not re-encoded). */
  rawBody?: string | Buffer;
  idempotencyKey?: string | null;
}

let counter = 0;
/** A fresh idempotency key per call unless the test gives one. */
export function freshKey(): string {
  counter += 1;
  return `test-key-${process.pid}-${Date.now()}-${counter}`;
}

/** Calls `/api/v1/accounting/<operation>` over real HTTP. Mutating POSTs get a fresh Idempotency-Key by default. */
export async function call(
  baseUrl: string,
  operation: string,
  input: Record<string, unknown> = {},
  options: CallOptions = {},
): Promise<ApiResponse> {
  const method = options.method ?? 'POST';
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let url = `${baseUrl}/api/v1/accounting/${operation}`;
  let body: string | Buffer | undefined;
  if (method === 'GET') {
    const query = new URLSearchParams(
      Object.entries(input).map(([k, v]): [string, string] => [k, String(v)]),
    );
    if ([...query].length) url += `?${query}`;
  } else {
    body = options.rawBody ?? JSON.stringify(input);
    if (!('content-type' in headers)) headers['content-type'] = 'application/json';
    if (
      options.idempotencyKey !== null &&
      !('idempotency-key' in headers) &&
      input.idempotencyKey === undefined
    ) {
      headers['idempotency-key'] = options.idempotencyKey ?? freshKey();
    }
  }
  // Every response the integration suite sees must match the published OpenAPI document.
  const response = await openApiCheckedFetch(url, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const parsed = jsonOrText(await response.text());
  const record = (parsed ?? {}) as { data?: unknown; error?: unknown };
  return {
    status: response.status,
    headers: response.headers,
    body: parsed,
    data: record.data as ApiResponse['data'],
    error: record.error as ApiResponse['error'],
  };
}

/**
 * `fetch` that checks every API answer against the OpenAPI document, for clients under test
 * (the typed client) that make their own requests.
 */
export const openApiCheckedFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (url.pathname.startsWith('/api/v1/accounting/')) {
    assertMatchesOpenApi({
      method: init?.method ?? (input instanceof Request ? input.method : 'GET'),
      path: url.pathname,
      status: response.status,
      headers: response.headers,
      body: jsonOrText(await response.clone().text()),
    });
  }
  return response;
};

/** A body as JSON when it parses, else the text itself. */
export function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
