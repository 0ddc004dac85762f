import type { Static, TSchema } from 'typebox';
import type { Role, Scope } from '../contract/access.ts';
import type { OperationContext } from './context.ts';

interface AccessRules {
  scopes: readonly Scope[];
  /** Input fields that only some roles may set (e.g. contractors.update `active`: admin only). */
  restrictedFields?: Readonly<Record<string, readonly Role[]>>;
}

/**
 * Who may call an operation. `roles: 'dashboard'` means no credential of the API, OAuth or MCP may
 * ever call it; only a member signed in to the dashboard whose role is in `dashboardRoles` may.
 */
export type OperationAccess = AccessRules &
  ({ roles: readonly Role[] } | { roles: 'dashboard'; dashboardRoles: readonly Role[] });

export interface MutationRules {
  /** Bounds of the body `idempotencyKey` (header is always 8-200). */
  idempotencyKeyMax: 150 | 200;
  /** 'required' when the operation changes an existing record and takes `expectedRevision`. */
  revision: 'required' | 'none';
  /** Irreversible or removing (drives the MCP destructive hint). */
  destructive?: boolean;
  /**
   * The result holds a secret shown once (a webhook signing secret): the idempotency record keeps
   * it sealed with the endpoint-secret keys and opens it only to replay (docs/decisions.md).
   */
  sealedReplay?: true;
  /**
   * A call that changes nothing (the same values again, an upload of bytes already stored, an
   * archive of what is archived) answers 200 and writes no audit row. Every other mutation must
   * write at least one: the unit checks it (src/unit/with-unit.ts, decision 394).
   */
  auditOnlyOnChange?: true;
}

export interface FileForm<O extends TSchema = TSchema> {
  /** Every media type the file can have (documented in OpenAPI beside JSON). */
  mediaTypes: readonly string[];
  from(output: Static<O>): { filename: string; mediaType: string; bytes: Buffer };
}

export interface OperationDescriptor<I extends TSchema = TSchema, O extends TSchema = TSchema> {
  /** Dotted name: the path segment after /api/v1/accounting/. */
  name: string;
  summary: string;
  description?: string;
  /** Docs/OpenAPI tag; defaults to the first segment of the name. */
  tag?: string;
  access: OperationAccess;
  /** Omitted for reads: reads accept GET as well as POST. */
  mutation?: MutationRules;
  /**
   * `false` for a read the contract lists as POST only (contractors.templates.list): GET gets
   * 405 like a mutation. Reads accept GET by default.
   */
  get?: false;
  /** MCP tool name; `false` keeps the operation out of MCP. Derived from the name when omitted. */
  mcpTool?: string | false;
  /**
   * A read whose result is a file. Over HTTP, a request whose `Accept` prefers the file's media
   * type (or `application/octet-stream`) to JSON gets the bytes themselves (with
   * Content-Disposition) instead of the JSON form; MCP and the JSON form keep the operation's output.
   */
  file?: FileForm<O>;
  /** Largest accepted body in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /**
   * The top-level base64 field that carries a file: over HTTP it is decoded while the body
   * arrives (`ctx.upload`, read through `uploadedFile`), and the idempotency hash reads its digest.
   */
  uploadField?: 'contentBase64';
  input: I;
  output: O;
  /**
   * A valid sample input (ids may be placeholders). It feeds OpenAPI and MCP examples, and the
   * catalog-wide security tests send it to check that access is refused before anything else.
   */
  example?: Static<I>;
  run(args: { ctx: OperationContext; input: Static<I> }): Promise<Static<O>>;
}

/** Identity function that keeps the input/output types tied to the schemas. */
export function defineOperation<const N extends string, I extends TSchema, O extends TSchema>(
  descriptor: OperationDescriptor<I, O> & { name: N },
): OperationDescriptor<I, O> & { readonly name: N } {
  return descriptor;
}

export type AnyOperation = OperationDescriptor<TSchema, TSchema>;

export function isRead(operation: AnyOperation): boolean {
  return operation.mutation === undefined;
}

/** The HTTP methods an operation answers: POST always, GET for reads not marked POST only. */
export function acceptsGet(operation: AnyOperation): boolean {
  return isRead(operation) && operation.get !== false;
}

/** `invoices.schedules.pause` -> `accounting_invoices_schedules_pause`; camelCase becomes snake_case. */
export function mcpToolName(operation: AnyOperation): string | undefined {
  if (operation.mcpTool === false || operation.access.roles === 'dashboard') return undefined;
  if (operation.mcpTool !== undefined) return operation.mcpTool;
  const snake = operation.name
    .split('.')
    .map((part) => part.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase())
    .join('_');
  return `accounting_${snake}`;
}
