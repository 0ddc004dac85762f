import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../db/database.ts';
import { WAKEUP_TOPICS, type Wakeups, type WakeupTopic } from './wakeups.ts';

/**
 * Cross-process nudges on PostgreSQL (issue 16, part 3). A process that commits new work sends
 * `NOTIFY accounting_wakeup, '<topic>:<sender>'` after the commit; every process that runs jobs
 * LISTENs on a session of its own and wakes its loops, so a separate `worker` starts a webhook's
 * first attempt within milliseconds instead of at its next poll. Polling stays the guarantee: a
 * lost notification (a listener reconnecting, a server restart) only costs one poll interval.
 */
export const WAKEUP_CHANNEL = 'accounting_wakeup';
const RECONNECT_MS = 1_000;
/** Identifies this process's own notifications, which it already delivered to itself. */
const sender = randomBytes(6).toString('hex');

/**
 * Publishes a process's nudges. At most one NOTIFY per topic is in flight: nudges that arrive
 * meanwhile are folded into one more after it, so a burst of creates costs two statements, not
 * one per create.
 */
export function publishWakeupsOver(db: Db, wakeups: Wakeups, logger: Logger): void {
  if (db.dialect !== 'postgres') return;
  const state = new Map<WakeupTopic, 'idle' | 'sending' | 'again'>();
  const send = (topic: WakeupTopic): void => {
    state.set(topic, 'sending');
    sql`select pg_notify(${WAKEUP_CHANNEL}, ${`${topic}:${sender}`})`
      .execute(db.kysely)
      .catch((error: unknown) => logger.debug({ err: error, topic }, 'wake-up notify failed'))
      .finally(() => {
        if (state.get(topic) === 'again') send(topic);
        else state.set(topic, 'idle');
      });
  };
  wakeups.publishWith((topic) => {
    const now = state.get(topic) ?? 'idle';
    if (now === 'idle') send(topic);
    else state.set(topic, 'again');
  });
}

export interface WakeupListener {
  close(): Promise<void>;
}

function topicOf(payload: string | undefined): WakeupTopic | undefined {
  const [topic, from] = (payload ?? '').split(':');
  if (from === sender) return undefined;
  return WAKEUP_TOPICS.find((known) => known === topic);
}

/** One listening session per process (per `Wakeups`), shared by the job runner and the HTTP server. */
const shared = new WeakMap<Wakeups, { users: number; close: () => Promise<void> }>();

/**
 * Listens for other processes' nudges until every user has closed its handle; reconnects on its
 * own after a failure. The job runner and the HTTP server (credential cache) each hold a handle
 * on the same session.
 */
export function listenForWakeups(db: Db, wakeups: Wakeups, logger: Logger): WakeupListener {
  if (!db.openListener) return { close: async () => {} };
  let entry = shared.get(wakeups);
  if (!entry) {
    entry = { users: 0, close: openSession(db, wakeups, logger) };
    shared.set(wakeups, entry);
  }
  const held = entry;
  held.users += 1;
  let released = false;
  return {
    async close() {
      if (released) return;
      released = true;
      held.users -= 1;
      if (held.users > 0) return;
      if (shared.get(wakeups) === held) shared.delete(wakeups);
      await held.close();
    },
  };
}

function openSession(db: Db, wakeups: Wakeups, logger: Logger): () => Promise<void> {
  const open = db.openListener;
  if (!open) return async () => {};
  let closed = false;
  let client: ReturnType<typeof open> | undefined;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const session = open();
    client = session;
    const lost = (error?: unknown) => {
      if (closed || client !== session) return;
      client = undefined;
      wakeups.setHearsOtherProcesses(false);
      session.end().catch(() => {});
      logger.warn({ err: error }, 'wake-up listener lost its connection; polling until it is back');
      retry = setTimeout(() => void connect(), RECONNECT_MS);
    };
    session.on('error', lost);
    session.on('end', () => lost());
    session.on('notification', (message) => {
      const topic = topicOf(message.payload);
      if (topic) wakeups.notifyHere(topic);
    });
    try {
      await session.connect();
      await session.query(`LISTEN ${WAKEUP_CHANNEL}`);
      if (closed || client !== session) return;
      wakeups.setHearsOtherProcesses(true);
      // Work committed (and credentials changed) while no one listened would otherwise wait for a
      // poll (or a cache's time limit): every topic once.
      for (const topic of WAKEUP_TOPICS) wakeups.notifyHere(topic);
    } catch (error) {
      lost(error);
    }
  };
  void connect();

  return async () => {
    closed = true;
    wakeups.setHearsOtherProcesses(false);
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}
