import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../db/database.ts';
import { listenForWakeups, type WakeupListener } from '../unit/cross-process-wakeups.ts';
import type { Wakeups } from '../unit/wakeups.ts';

const GENERATION_SQL = 'select generation from credential_generation where id = 1';
/** When the writer is inside a transaction: from the read pool, not waiting for it to end. */
const GENERATION = sql.raw<Generation>(GENERATION_SQL);

/** The joined API key row authentication needs: the key, its member and its organization. */
export interface KeyRow {
  id: string;
  organization_id: string;
  member_id: string;
  secret_hash: string;
  scopes: unknown;
  last_used_at: string | null;
  revoked_at: string | null;
  expires_at: string | null;
  role: string | null;
  status: string | null;
  suspended_at: string | null;
}

interface Generation {
  generation: number | string;
}

interface Entry {
  row: KeyRow;
  stamp: number;
  storedAt: number;
}

export interface CredentialCacheSettings {
  /** How long an entry may serve requests at most, even when no change was heard; 0 disables. */
  ttlMs: number;
  maxEntries: number;
}

/**
 * A short, revocation-aware cache of API key lookups (issue 16, decision 273). It saves the joined
 * key/member/organization statement on most requests; whether a key may be used is still decided
 * on every request from the cached row (revoked, expired at this instant, member active,
 * organization not suspended), and any change to what the row holds empties the cache before the
 * next request is answered, whichever process made it:
 *
 * - SQLite: a stamp is read on every request from `credential_generation`, which triggers bump in
 *   the writing transaction (migration 0019); an entry serves only while the stamp is unchanged.
 *   Every process on the file (`serve`, `worker`, CLI commands) writes through those triggers.
 * - PostgreSQL: the same triggers NOTIFY; the process's one wake-up listener
 *   (src/unit/cross-process-wakeups.ts) delivers `credentials`, which moves the stamp on. While the
 *   listener is not connected (start-up, reconnecting) the cache is bypassed, and a (re)connection
 *   moves the stamp on, so nothing heard-or-missed during a gap is served. This process's own
 *   writes through Kysely move it on as they are made (src/db/credential-writes.ts), without
 *   waiting for their notification.
 *
 * An entry is stored under the stamp read BEFORE its lookup: a change committed while the lookup
 * ran leaves it stale-stamped, never served. The time limit is only a backstop.
 */
export class CredentialCache {
  readonly #entries = new Map<string, Entry>();
  readonly #settings: CredentialCacheSettings;
  readonly #db: Db;
  readonly #wakeups: Wakeups;
  /** PostgreSQL: moved on by every `credentials` wake-up and every listener (re)connection. */
  #epoch = 0;
  #listener: WakeupListener | undefined;

  constructor(db: Db, wakeups: Wakeups, settings: CredentialCacheSettings) {
    this.#db = db;
    this.#wakeups = wakeups;
    this.#settings = settings;
    wakeups.on('credentials', () => this.clear());
    db.credentialWrites?.onWrite(() => this.clear());
  }

  /**
   * PostgreSQL: joins the process's wake-up listener (shared with the job runner), without which
   * the cache stays bypassed. Called by the HTTP server, which calls `close` when it stops; a
   * one-shot CLI command never opens a listening session.
   */
  listen(logger: Logger): void {
    if (!this.enabled || this.#listener) return;
    this.#listener = listenForWakeups(this.#db, this.#wakeups, logger);
  }

  async close(): Promise<void> {
    const listener = this.#listener;
    this.#listener = undefined;
    this.clear();
    await listener?.close();
  }

  /** Entries held (tests assert that a key is cached before they change it). */
  get size(): number {
    return this.#entries.size;
  }

  get enabled(): boolean {
    return this.#settings.ttlMs > 0;
  }

  /**
   * The current stamp, or undefined when the cache must not be used now. SQLite: one row by
   * primary key; PostgreSQL: no statement.
   */
  async stamp(): Promise<number | undefined> {
    if (!this.enabled) return undefined;
    if (this.#db.dialect === 'postgres') {
      return this.#wakeups.hearsOtherProcesses ? this.#epoch : undefined;
    }
    // On the writer at once when it is outside a transaction (it then holds exactly the last
    // commit): a hop to a read-pool thread cost more than this one-row read (issue 16).
    const row = (this.#db.readCommittedRow?.(GENERATION_SQL) ??
      (await GENERATION.execute(this.#db.readKysely)).rows[0]) as Generation | undefined;
    const generation = row?.generation;
    return generation === undefined ? undefined : Number(generation);
  }

  get(lookupId: string, stamp: number | undefined): KeyRow | undefined {
    if (stamp === undefined) return undefined;
    const entry = this.#entries.get(lookupId);
    if (!entry) return undefined;
    if (entry.stamp !== stamp || performance.now() - entry.storedAt >= this.#settings.ttlMs) {
      this.#entries.delete(lookupId);
      return undefined;
    }
    return entry.row;
  }

  set(lookupId: string, row: KeyRow, stamp: number | undefined): void {
    if (stamp === undefined) return;
    // PostgreSQL: a change heard while the lookup ran; the row may predate it.
    if (this.#db.dialect === 'postgres' && stamp !== this.#epoch) return;
    this.#entries.delete(lookupId);
    this.#entries.set(lookupId, { row, stamp, storedAt: performance.now() });
    if (this.#entries.size > this.#settings.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
  }

  /** Everything cached is dropped (a credential changed somewhere, or the listener reconnected). */
  clear(): void {
    this.#epoch += 1;
    this.#entries.clear();
  }
}
