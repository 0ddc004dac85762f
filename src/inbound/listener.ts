import type { AddressInfo } from 'node:net';
import type { SMTPServerDataStream } from 'smtp-server';
import { newId } from '../lib/ids.ts';
import type { UnitRuntime } from '../unit/unit-of-work.ts';
import { withUnit } from '../unit/with-unit.ts';
import { type InboundAddressRow, resolveLocalPart } from './addresses.ts';
import { parseInbound } from './parse.ts';
import { type InboundMessage, type InboundOutcome, type InboundRouter, senderMember } from './router.ts';

/** What the listener needs from the process (the composition root satisfies it). */
export interface InboundSettings {
  /** ACCOUNTING_INBOUND_SMTP_PORT; the listener is off when undefined. */
  port: number | undefined;
  host: string;
  /** ACCOUNTING_INBOUND_DOMAIN: the domain of every receiving address. */
  domain: string;
  /** ACCOUNTING_INBOUND_MAX_BYTES: largest message accepted (announced with SIZE). */
  maxMessageBytes: number;
}

export const INBOUND_JOB = 'inbound.smtp';

export interface InboundListener {
  port: number;
  close(): Promise<void>;
}

class Refused extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

const smtpError = (code: number, message: string) =>
  Object.assign(new Error(message), { responseCode: code });

/**
 * The message, or undefined when it exceeds `limit`: past the limit chunks are drained, not kept,
 * so an oversized message costs no memory (smtp-server also flags `sizeExceeded` at its `size`).
 */
async function readBounded(stream: SMTPServerDataStream, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of stream) {
    bytes += (chunk as Buffer).length;
    if (bytes <= limit) chunks.push(chunk as Buffer);
    else chunks.length = 0;
  }
  return stream.sizeExceeded || bytes > limit ? undefined : Buffer.concat(chunks);
}

/**
 * Delivers one message to one address: the purpose's handler runs in a unit of work with the
 * message log row; a refusal rolls the handler's writes back and logs only the refusal.
 */
export async function deliverInbound(
  runtime: UnitRuntime,
  router: InboundRouter,
  address: InboundAddressRow,
  message: InboundMessage,
): Promise<InboundOutcome> {
  const unitOptions = {
    organizationId: address.organization_id,
    actor: { type: 'job', job: INBOUND_JOB } as const,
    operation: INBOUND_JOB,
  };
  const log = (unit: { db: UnitRuntime['db']['kysely'] }, outcome: InboundOutcome, memberId: string | null) =>
    unit.db
      .insertInto('inbound_messages')
      .values({
        id: newId(),
        organization_id: address.organization_id,
        address_id: address.id,
        purpose: address.purpose,
        outcome: outcome.outcome,
        reason: outcome.outcome === 'refused' ? outcome.reason : null,
        member_id: memberId,
        items: outcome.outcome === 'accepted' ? outcome.items : 0,
        size: message.raw.length,
        received_at: runtime.clock.now().toISOString(),
      })
      .execute();
  const handler = router.handler(address.purpose);
  let memberId: string | null = null;
  let refusal: string;
  try {
    if (!handler) throw new Refused('purpose_not_served');
    return await withUnit(runtime, unitOptions, async (unit) => {
      const sender = await senderMember(unit.db, address.organization_id, message);
      memberId = sender.memberId;
      const outcome = await handler({ unit, address, message, sender });
      if (outcome.outcome === 'refused') throw new Refused(outcome.reason);
      await log(unit, outcome, memberId);
      return outcome;
    });
  } catch (error) {
    if (!(error instanceof Refused)) {
      runtime.logger.error({ err: error, addressId: address.id }, 'inbound delivery failed');
      refusal = 'processing_failed';
    } else refusal = error.reason;
  }
  const refused: InboundOutcome = { outcome: 'refused', reason: refusal };
  await withUnit(runtime, unitOptions, (unit) => log(unit, refused, memberId));
  return refused;
}

/**
 * The inbound SMTP listener (off unless a port is configured). It answers RCPT TO only for live
 * receiving addresses of the configured domain, refuses messages over the size limit, and passes
 * each accepted message to the handler of its address's purpose. No AUTH: the listener receives
 * mail for our addresses the way an MX does, behind a relay that does TLS and spam filtering.
 */
export async function startInboundListener(
  runtime: UnitRuntime,
  router: InboundRouter,
  settings: InboundSettings & { port: number },
): Promise<InboundListener> {
  const domain = settings.domain.toLowerCase();
  // Announced with SIZE: never more than the largest message a purpose's store could keep.
  const ceiling = Math.min(
    settings.maxMessageBytes,
    router.largestMessageBytes() ?? Number.POSITIVE_INFINITY,
  );
  // Loaded only when a port is configured (most processes never listen for mail).
  const { SMTPServer } = await import('smtp-server');
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    size: ceiling,
    maxClients: 50,
    socketTimeout: 60_000,
    closeTimeout: 2_000,
    onRcptTo(address, _session, callback) {
      const [local, host] = address.address.toLowerCase().split('@');
      if (!local || host !== domain) {
        callback(smtpError(550, 'no such mailbox'));
        return;
      }
      resolveLocalPart(runtime.db.kysely, local).then(
        (row) => callback(row ? undefined : smtpError(550, 'no such mailbox')),
        () => callback(smtpError(451, 'try again later')),
      );
    },
    onData(stream, session, callback) {
      void (async () => {
        const addresses: InboundAddressRow[] = [];
        for (const rcpt of session.envelope.rcptTo) {
          const local = rcpt.address.toLowerCase().split('@')[0] ?? '';
          const address = await resolveLocalPart(runtime.db.kysely, local);
          if (address) addresses.push(address);
        }
        // The smallest limit among the recipients' purposes: each delivery must fit its store.
        const limit = Math.min(
          ceiling,
          ...addresses.map((a) => router.maxMessageBytes(a.purpose) ?? ceiling),
        );
        const raw = await readBounded(stream, limit);
        if (!raw) throw smtpError(552, `message exceeds ${limit} bytes, more than its mailbox keeps`);
        const envelopeFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : null;
        const message = await parseInbound(raw, envelopeFrom || null);
        const outcomes: InboundOutcome[] = [];
        for (const address of addresses)
          outcomes.push(await deliverInbound(runtime, router, address, message));
        const accepted = outcomes.some((o) => o.outcome === 'accepted');
        if (!accepted) {
          const reasons = outcomes.map((o) => (o.outcome === 'refused' ? o.reason : '')).join(', ');
          throw smtpError(550, `message refused (${reasons || 'no live recipient'})`);
        }
      })().then(
        () => callback(),
        (error: Error & { responseCode?: number }) => {
          stream.resume(); // a failure before the message was read: drain it so the session goes on
          if (error.responseCode === undefined) {
            runtime.logger.error({ err: error }, 'inbound message could not be read');
            callback(smtpError(451, 'message could not be processed; try again later'));
          } else callback(error);
        },
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(settings.port, settings.host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
