import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { asJson, dbJson } from '../db/values.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { MailDeliveryError } from './errors.ts';
import { assertValidMailMessage, type MailMessage } from './message.ts';

/** What actually puts mail on the wire (nodemailer over SMTP in production). */
export interface MailTransport {
  send(message: MailMessage): Promise<unknown>;
}

export interface MailQueue {
  /** Writes the message with the caller's transaction: mail exists exactly when the change does. */
  enqueue(db: Kysely<Database>, organizationId: string | null, message: MailMessage): Promise<string>;
  /** Sends what is due (or, without SMTP, keeps and logs it). Safe to call from several processes. */
  dispatchPending(): Promise<number>;
}

const MAX_ATTEMPTS = 8;
const LOCK_MS = 60_000;

interface StoredAttachment {
  filename: string;
  contentType: string;
  base64: string;
}

function toMessage(row: {
  recipients: unknown;
  subject: string;
  text_body: string;
  html_body: string | null;
  attachments: unknown;
}): MailMessage {
  const stored = row.attachments ? asJson<StoredAttachment[]>(row.attachments) : undefined;
  return {
    to: asJson<string[]>(row.recipients),
    subject: row.subject,
    text: row.text_body,
    ...(row.html_body ? { html: row.html_body } : {}),
    ...(stored
      ? {
          attachments: stored.map((a) => ({
            filename: a.filename,
            contentType: a.contentType,
            content: Buffer.from(a.base64, 'base64'),
          })),
        }
      : {}),
  };
}

export function createMailQueue(deps: {
  db: Db;
  clock: Clock;
  logger: Logger;
  transport: MailTransport | undefined;
}): MailQueue {
  const { db, clock, logger, transport } = deps;

  /** Compare-and-set claim, so two processes never send the same row at once. */
  async function claim(id: string, nowIso: string): Promise<boolean> {
    const result = await db.kysely
      .updateTable('mail_outbox')
      .set((eb) => ({
        status: 'sending',
        attempts: eb('attempts', '+', 1),
        locked_until: new Date(clock.now().getTime() + LOCK_MS).toISOString(),
      }))
      .where('id', '=', id)
      .where((eb) =>
        eb.or([
          eb('status', '=', 'pending'),
          eb.and([eb('status', '=', 'sending'), eb('locked_until', '<', nowIso)]),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async function finish(
    id: string,
    values: { status: string; last_error?: string | null; next_attempt_at?: string; sent_at?: string },
  ) {
    await db.kysely
      .updateTable('mail_outbox')
      .set({ ...values, locked_until: null })
      .where('id', '=', id)
      .execute();
  }

  return {
    async enqueue(trx, organizationId, message) {
      // A malformed message fails the caller's transaction now, not eight retries later.
      assertValidMailMessage(message);
      const id = newId();
      const now = clock.now().toISOString();
      const attachments: StoredAttachment[] | null = message.attachments
        ? message.attachments.map((a) => ({
            filename: a.filename,
            contentType: a.contentType,
            base64: a.content.toString('base64'),
          }))
        : null;
      await trx
        .insertInto('mail_outbox')
        .values({
          id,
          organization_id: organizationId,
          recipients: dbJson(message.to),
          subject: message.subject,
          text_body: message.text,
          html_body: message.html ?? null,
          attachments: attachments ? dbJson(attachments) : null,
          kind: message.tags?.kind ?? null,
          status: 'pending',
          attempts: 0,
          last_error: null,
          next_attempt_at: now,
          locked_until: null,
          created_at: now,
          sent_at: null,
        })
        .execute();
      return id;
    },

    async dispatchPending() {
      const nowIso = clock.now().toISOString();
      const due = await db.kysely
        .selectFrom('mail_outbox')
        .selectAll()
        .where((eb) =>
          eb.or([
            eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', nowIso)]),
            eb.and([eb('status', '=', 'sending'), eb('locked_until', '<', nowIso)]),
          ]),
        )
        .orderBy('created_at')
        .limit(50)
        .execute();
      let handled = 0;
      for (const row of due) {
        if (!(await claim(row.id, nowIso))) continue;
        handled += 1;
        if (!transport) {
          // No SMTP on a laptop: the message stays readable in the outbox table; say so in the log.
          logger.info(
            { mailId: row.id, to: asJson<string[]>(row.recipients), subject: row.subject, kind: row.kind },
            'mail kept in outbox (SMTP_URL not set)',
          );
          await finish(row.id, { status: 'kept' });
          continue;
        }
        try {
          await transport.send(toMessage(row));
          await finish(row.id, { status: 'sent', sent_at: clock.now().toISOString(), last_error: null });
        } catch (error) {
          const attempts = row.attempts + 1;
          // A 5xx for the recipients or the message will not change by retrying.
          const permanent = error instanceof MailDeliveryError && error.permanent;
          const gaveUp = permanent || attempts >= MAX_ATTEMPTS;
          logger.warn(
            { mailId: row.id, attempts, err: error },
            gaveUp ? 'mail failed permanently' : 'mail send failed; will retry',
          );
          await finish(row.id, {
            status: gaveUp ? 'failed' : 'pending',
            last_error: (error instanceof Error ? error.message : String(error)).slice(0, 500),
            // 1, 2, 4, 8 ... minutes between attempts
            next_attempt_at: new Date(clock.now().getTime() + 60_000 * 2 ** (attempts - 1)).toISOString(),
          });
        }
      }
      return handled;
    },
  };
}
