import type pg from 'pg';

/**
 * Statements that start with this comment run as named prepared statements on PostgreSQL: the
 * server parses and plans each once per connection instead of on every call. Only the hot
 * statements every mutation sends carry it (the idempotency claim, a unit's combined last
 * statement); their texts form a small, fixed set.
 */
export const PREPARED = '/* prepared */ ';

/** Statement text -> its name, shared by every connection (each prepares it on first use). */
const names = new Map<string, string>();
/** A bound on distinct texts, should a caller ever build them from varying input. */
const MAX_NAMES = 500;
const patched = new WeakSet<pg.PoolClient>();

/**
 * PostgreSQL refuses to run a prepared statement whose result columns changed type since it was
 * prepared (a migration while this process runs): SQLSTATE 0A000, "cached plan must not change
 * result type". The statement fails once; the connection then prepares that text again, under a
 * new name, on its next use.
 */
function changedResultType(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === '0A000' && typeof message === 'string' && message.includes('must not change result type');
}

type Query = (...args: unknown[]) => unknown;

/**
 * Makes the pool's clients run PREPARED statements by name (pg sends Parse once per client and
 * statement, then only Bind and Execute). Other statements pass through untouched.
 */
export function prepareMarkedStatements(pool: pg.Pool): void {
  pool.on('connect', (client: pg.PoolClient) => {
    if (patched.has(client)) return;
    patched.add(client);
    const query = client.query.bind(client) as Query;
    // Texts whose prepared form went stale on this connection, and how many times: each time the
    // text is prepared again under a new name (the stale one stays on the server, unused).
    const renamed = new Map<string, number>();
    (client as unknown as { query: Query }).query = (...args: unknown[]) => {
      const [text, values] = args;
      if (typeof text !== 'string' || !text.startsWith(PREPARED) || !Array.isArray(values))
        return query(...args);
      let base = names.get(text);
      if (base === undefined) {
        if (names.size >= MAX_NAMES) return query(...args);
        base = `prepared_${names.size + 1}`;
        names.set(text, base);
      }
      const version = renamed.get(text);
      const name = version === undefined ? base : `${base}_${version}`;
      const result = query({ name, text, values });
      if (result instanceof Promise)
        return result.catch((error: unknown) => {
          if (changedResultType(error)) renamed.set(text, (version ?? 0) + 1);
          throw error;
        });
      return result;
    };
  });
}
