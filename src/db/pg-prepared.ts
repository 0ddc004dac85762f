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
    (client as unknown as { query: Query }).query = (...args: unknown[]) => {
      const [text, values] = args;
      if (typeof text !== 'string' || !text.startsWith(PREPARED) || !Array.isArray(values))
        return query(...args);
      let name = names.get(text);
      if (name === undefined) {
        if (names.size >= MAX_NAMES) return query(...args);
        name = `prepared_${names.size + 1}`;
        names.set(text, name);
      }
      return query({ name, text, values });
    };
  });
}
