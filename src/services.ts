import { type Logger, pino } from 'pino';
import { companyMailInboundHandler } from './company-mail/inbound.ts';
import { MAX_SCAN_BYTES } from './company-mail/scan-files.ts';
import type { Config } from './config.ts';
import { CredentialCache } from './credentials/key-cache.ts';
import { type Db, openDatabase } from './db/database.ts';
import { type CredentialRateLimiter, createCredentialRateLimiter } from './db/shared-rate-limit.ts';
import {
  createEventRecorder,
  type EventFanOut,
  type EventRecorder,
  nonConformancePolicy,
} from './events/recorder.ts';
import { InboundRouter } from './inbound/router.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { RateLimiter } from './lib/rate-limit.ts';
import { createMailQueue, type MailQueue, type MailTransport } from './mail/outbox-queue.ts';
import { createMetrics, type Metrics } from './observability/metrics.ts';
import { RECEIPTS_INBOUND_MAX_FILE_BYTES, receiptsInboundHandler } from './receipts/inbox/inbound.ts';
import { publishWakeupsOver } from './unit/cross-process-wakeups.ts';
import { Wakeups } from './unit/wakeups.ts';
import { webhookFanOut } from './webhooks/fan-out.ts';

/** Everything an operation, a transport or a worker may use; built once per process (or per test). */
export interface Services {
  config: Config;
  db: Db;
  clock: Clock;
  logger: Logger;
  events: EventRecorder;
  mail: MailQueue;
  /** Per credential, shared across processes on PostgreSQL (src/operations/shared-rate-limit.ts). */
  rateLimiter: CredentialRateLimiter;
  /** The contractor portal's limiter, keyed by client address (src/http/portal-routes.ts). */
  portalRateLimiter: RateLimiter;
  /** Dashboard sign-in attempts, per client address and per e-mail address (same stores as above). */
  signInRateLimiter: CredentialRateLimiter;
  metrics: Metrics;
  /** Nudges for this process's job loops after a commit (see src/unit/wakeups.ts). */
  wakeups: Wakeups;
  /** API key lookups, cached for a few seconds and dropped on any credential change (decision 273). */
  credentials: CredentialCache;
  /** Inbound mail handlers by address purpose (src/inbound/router.ts); registered in `inboundRouter`. */
  inbound: InboundRouter;
}

export interface ServiceOverrides {
  db?: Db;
  clock?: Clock;
  logger?: Logger;
  mailTransport?: MailTransport;
  eventFanOuts?: readonly EventFanOut[];
}

export function createLogger(config: Config): Logger {
  // Logs go to stderr so stdout stays free for command output (`init --json`, MCP over stdio).
  return pino({ level: config.logLevel, base: { service: 'accounting' } }, pino.destination(2));
}

export async function createServices(config: Config, overrides: ServiceOverrides = {}): Promise<Services> {
  const db =
    overrides.db ??
    openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      sqliteReaders: config.sqliteReaders,
      // A transaction idle longer than an idempotency lock belongs to a stalled holder whose key
      // may be taken over (decision 175); at least 5 s, so a busy machine's pauses are not cut.
      idleInTransactionTimeoutMs: Math.max(config.idempotencyLockMs, 5000),
    });
  const clock = overrides.clock ?? systemClock;
  const logger = overrides.logger ?? createLogger(config);
  const transport = overrides.mailTransport ?? (await smtpTransportFromConfig(config));
  const wakeups = new Wakeups();
  publishWakeupsOver(db, wakeups, logger);
  return {
    config,
    db,
    clock,
    logger,
    // Default fan-out: one webhook delivery row per matching endpoint, in the event's transaction.
    events: createEventRecorder(
      overrides.eventFanOuts ?? [webhookFanOut],
      nonConformancePolicy((message) => logger.error(message)),
    ),
    mail: createMailQueue({ db, clock, logger, transport }),
    rateLimiter: createCredentialRateLimiter(db, config.rateLimit, config.redisUrl),
    portalRateLimiter: new RateLimiter(config.portalRateLimit),
    signInRateLimiter: createCredentialRateLimiter(db, config.sessions.signInRateLimit, config.redisUrl),
    metrics: createMetrics(),
    wakeups,
    credentials: new CredentialCache(db, wakeups, { ttlMs: config.credentialCacheMs, maxEntries: 10_000 }),
    inbound: inboundRouter(),
  };
}

async function smtpTransportFromConfig(config: Config): Promise<MailTransport | undefined> {
  if (!config.smtpUrl) return undefined;
  const { createSmtpMailer } = await import('./mail/mailer.ts');
  return createSmtpMailer({ url: config.smtpUrl, from: config.mailFrom });
}

/** Each inbound mail purpose and its handler; an area adds its line here. */
function inboundRouter(): InboundRouter {
  const router = new InboundRouter();
  router.register('receipts', receiptsInboundHandler, { maxFileBytes: RECEIPTS_INBOUND_MAX_FILE_BYTES });
  router.register('company_mail', companyMailInboundHandler, { maxFileBytes: MAX_SCAN_BYTES });
  return router;
}
