import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

/** The tables a cached API key lookup reads (src/credentials/key-cache.ts). */
const CREDENTIAL_TABLES = new Set(['api_keys', 'members', 'organizations']);
/** An update of these columns only leaves every credential as it was. */
const IRRELEVANT_COLUMNS = new Set(['last_used_at', 'updated_at']);

function tableName(node: OperationNode | undefined): string | undefined {
  if (!node) return undefined;
  if (node.kind === 'AliasNode') return tableName((node as unknown as { node: OperationNode }).node);
  if (node.kind !== 'TableNode') return undefined;
  return (node as unknown as { table: { identifier: { name: string } } }).table.identifier.name;
}

function columnName(node: OperationNode): string | undefined {
  const column = node as unknown as { kind: string; column?: { name?: string } };
  return column.kind === 'ColumnNode' ? column.column?.name : undefined;
}

function touchesCredentials(node: RootOperationNode): boolean {
  if (node.kind === 'UpdateQueryNode') {
    if (!CREDENTIAL_TABLES.has(tableName(node.table) ?? '')) return false;
    return (node.updates ?? []).some((update) => !IRRELEVANT_COLUMNS.has(columnName(update.column) ?? ''));
  }
  if (node.kind === 'DeleteQueryNode' || node.kind === 'InsertQueryNode') {
    const tables = node.kind === 'DeleteQueryNode' ? node.from.froms : [node.into];
    return tables.some((table) => CREDENTIAL_TABLES.has(tableName(table) ?? ''));
  }
  return false;
}

/**
 * Tells this process at once when it writes a key, member or organization through Kysely, before
 * the statement runs and again when it has run (for an autocommitted statement: committed), so
 * its own credential cache is never behind its own writes. Other processes' writes arrive by
 * NOTIFY from the triggers of migration 0019, which also cover this process's transactions at
 * commit and any write not made through Kysely (PostgreSQL only; SQLite compares a generation).
 */
export class CredentialWrites implements KyselyPlugin {
  readonly #listeners = new Set<() => void>();
  readonly #pending = new WeakSet<object>();

  onWrite(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (this.#listeners.size > 0 && touchesCredentials(args.node)) {
      this.#pending.add(args.queryId);
      this.#fire();
    }
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.#pending.has(args.queryId)) this.#fire();
    return args.result;
  }

  #fire(): void {
    for (const listener of this.#listeners) listener();
  }
}
