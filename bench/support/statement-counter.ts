// Counts the SQL statements a process sends to its database (benchmarks only): every query a pg
// client sends (transaction control included) and every run of a better-sqlite3 statement
// (BEGIN and COMMIT are statements there too). Installed by patching the drivers' prototypes, so
// it sees every connection of the process, the wake-up listener's included.
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';

export interface StatementCounter {
  /** Statements since install (or the last reset). */
  readonly count: number;
  /** The statement texts seen, with how often each ran, when `capture` was asked for. */
  readonly texts: Map<string, number>;
  reset(): void;
}

let installed: { count: number; texts: Map<string, number>; capture: boolean } | undefined;

export function installStatementCounter(options: { capture?: boolean } = {}): StatementCounter {
  if (!installed) {
    const state = { count: 0, texts: new Map<string, number>(), capture: options.capture ?? false };
    installed = state;
    const seen = (text: unknown) => {
      state.count += 1;
      if (state.capture && typeof text === 'string') state.texts.set(text, (state.texts.get(text) ?? 0) + 1);
    };
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const first = args[0];
      seen(typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text);
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    const scratch = new BetterSqlite3(':memory:');
    const statement = Object.getPrototypeOf(scratch.prepare('select 1')) as Record<string, unknown>;
    scratch.close();
    for (const method of ['run', 'all', 'get', 'iterate']) {
      const original = statement[method] as (...a: unknown[]) => unknown;
      statement[method] = function (this: { source: string }, ...args: unknown[]) {
        seen(this.source);
        return original.apply(this, args);
      };
    }
  }
  const state = installed;
  return {
    get count() {
      return state.count;
    },
    get texts() {
      return state.texts;
    },
    reset() {
      state.count = 0;
      state.texts.clear();
    },
  };
}
