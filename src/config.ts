import type { InboundSettings } from './inbound/listener.ts';
import { DAY } from './lib/clock.ts';
import { parseDurationMs } from './lib/duration.ts';
import { DEFAULT_MAIL_FROM } from './mail/sender.ts';
import { isLocalhost, type SessionSettings } from './sessions/settings.ts';
import { parseDeliverySettings, type WebhookSettings } from './webhooks/delivery/settings.ts';
import type { LocalhostPorts } from './webhooks/url-policy.ts';

/** Every setting, read once from the environment (documented in docs/configuration.md). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** ACCOUNTING_SQLITE_READERS: read-only SQLite connections on worker threads (0 = none). */
  sqliteReaders: number;
  /** Base address used in links we send (invitations); defaults to http://HOST:PORT. */
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** ACCOUNTING_MAIL_RETENTION_DAYS: sent or failed mail older than this leaves the outbox. */
  mailRetentionDays: number;
  logLevel: string;
  rateLimit: { requests: number; windowMs: number };
  /** REDIS_URL: where the credential rate limit keeps its buckets, when set. */
  redisUrl: string | undefined;
  /** ACCOUNTING_PORTAL_RATE_LIMIT: portal page requests per client address (no credential there). */
  portalRateLimit: { requests: number; windowMs: number };
  idempotencyTtlMs: number;
  /** A request still "running" after this long is presumed dead and its key can be taken over. */
  idempotencyLockMs: number;
  /** How long an API key lookup may be served from the revocation-aware cache; 0 turns it off (decision 273). */
  credentialCacheMs: number;
  oauth: { issuer: string; jwksUrl: string; audience: string | undefined } | undefined;
  /** Recurring invoices, payment plans and deadlines (docs/invoicing.md, "Schedules"). */
  schedules: {
    /** ACCOUNTING_SCHEDULE_NOTICE_DAYS: days before a recurring run that the organization is told. */
    noticeDays: number;
    /** ACCOUNTING_SCHEDULE_CATCHUP_DAYS: missed runs at most this old are still made after downtime. */
    catchUpDays: number;
    /** ACCOUNTING_DUE_SOON_DAYS: days before a due date that "due soon" reminders go out. */
    dueSoonDays: number;
  };
  webhooks: WebhookSettings;
  /**
   * ACCOUNTING_POLL_INTERVAL: the idle pause of the job loops that a commit wakes (webhook
   * delivery, statement imports and exports); unset, each job keeps its own (100 ms, 1 s).
   */
  pollIntervalMs: number | undefined;
  /** Dashboard and portal sessions and sign-in links (docs/dashboard.md). */
  sessions: SessionSettings;
  /** Inbound e-mail (receipts by mail and other purposes): the SMTP listener, off by default. */
  inbound: InboundSettings;
  /**
   * Exchange rates for receipt matching (docs/receipts-matching.md, decision 492): the ECB-format
   * file the rates job fetches (ACCOUNTING_REFERENCE_RATES_URL; unset, no job and no network)
   * and how often (ACCOUNTING_REFERENCE_RATES_INTERVAL).
   */
  referenceRates: { url: string | undefined; intervalMs: number };
}

export class ConfigError extends Error {}

/** Parses `90s`, `5m`, `24h`, `7d`, `500ms` or plain milliseconds. */
export function parseDuration(text: string, name: string): number {
  const ms = parseDurationMs(text);
  if (ms === undefined) throw new ConfigError(`${name}: "${text}" is not a duration like 30s, 5m, 24h`);
  return ms;
}

function parseRateLimit(text: string, name: string): { requests: number; windowMs: number } {
  const match = /^(\d+)\/(\d+(?:ms|s|m|h))$/.exec(text.trim());
  const requests = Number(match?.[1]);
  const windowMs = match?.[2] === undefined ? 0 : parseDuration(match[2], name);
  if (!match || requests < 1 || windowMs < 1) {
    throw new ConfigError(`${name}: "${text}" is not like 600/1m (requests per window)`);
  }
  return { requests, windowMs };
}

/** The contract promises replays for at least a day, so shorter settings are refused. */
function parseIdempotencyTtl(text: string): number {
  const ms = parseDuration(text, 'ACCOUNTING_IDEMPOTENCY_TTL');
  if (ms < DAY) throw new ConfigError('ACCOUNTING_IDEMPOTENCY_TTL: must be at least 24h');
  return ms;
}

function parseBool(text: string | undefined, name: string, fallback: boolean): boolean {
  if (text === undefined || text === '') return fallback;
  const value = text.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  // A typo must not silently flip a security setting.
  throw new ConfigError(`${name}: "${text}" is not true/false`);
}

/** Links in mail and the portal are built from it, so it must be an absolute http(s) URL. */
function parsePublicUrl(text: string | undefined, fallback: string): string {
  const value = text === undefined || text === '' ? fallback : text.trim();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`ACCOUNTING_PUBLIC_URL: "${value}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`ACCOUNTING_PUBLIC_URL: "${value}" must start with http:// or https://`);
  if (url.search || url.hash || url.username || url.password)
    throw new ConfigError(
      `ACCOUNTING_PUBLIC_URL: "${value}" must not carry credentials, a query or a fragment`,
    );
  return value.replace(/\/+$/, '');
}

/** Any string of 32+ characters (HKDF derives the AES key); shorter ones are too easy to guess. */
function parseSecretKey(text: string | undefined): string | undefined {
  if (text === undefined || text === '') return undefined;
  if (text.length < 32) throw new ConfigError('ACCOUNTING_SECRET_KEY: must be at least 32 characters');
  return text;
}

/** A whole number of days within `min`-`max` (0-365 unless given). */
function parseDays(text: string | undefined, name: string, fallback: number, min = 0, max = 365): number {
  if (text === undefined || text === '') return fallback;
  const days = Number(text);
  if (!/^\d+$/.test(text.trim()) || days < min || days > max) {
    throw new ConfigError(`${name}: "${text}" is not ${min}-${max} days`);
  }
  return days;
}

function parseCount(
  text: string | undefined,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  if (text === undefined || text === '') return fallback;
  const count = Number(text);
  if (!/^\d+$/.test(text.trim()) || count < min || count > max) {
    throw new ConfigError(`${name}: "${text}" is not a whole number from ${min} to ${max}`);
  }
  return count;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`PORT: "${env.PORT}" is not a port`);
  const host = env.HOST ?? '127.0.0.1';
  const issuer = env.ACCOUNTING_OAUTH_ISSUER;
  const publicUrl = parsePublicUrl(
    env.ACCOUNTING_PUBLIC_URL,
    `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host}:${port}`,
  );
  return {
    port,
    host,
    dataDir: env.ACCOUNTING_DATA_DIR ?? './data',
    databaseUrl: env.DATABASE_URL || undefined,
    sqliteReaders: parseCount(env.ACCOUNTING_SQLITE_READERS, 'ACCOUNTING_SQLITE_READERS', 2, 0, 16),
    publicUrl,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || DEFAULT_MAIL_FROM,
    mailRetentionDays: parseDays(
      env.ACCOUNTING_MAIL_RETENTION_DAYS,
      'ACCOUNTING_MAIL_RETENTION_DAYS',
      30,
      1,
      3650,
    ),
    logLevel: env.LOG_LEVEL ?? 'info',
    rateLimit: parseRateLimit(env.ACCOUNTING_RATE_LIMIT ?? '600/1m', 'ACCOUNTING_RATE_LIMIT'),
    pollIntervalMs: env.ACCOUNTING_POLL_INTERVAL
      ? parseDuration(env.ACCOUNTING_POLL_INTERVAL, 'ACCOUNTING_POLL_INTERVAL')
      : undefined,
    redisUrl: env.REDIS_URL || undefined,
    portalRateLimit: parseRateLimit(
      env.ACCOUNTING_PORTAL_RATE_LIMIT ?? '60/1m',
      'ACCOUNTING_PORTAL_RATE_LIMIT',
    ),
    idempotencyTtlMs: parseIdempotencyTtl(env.ACCOUNTING_IDEMPOTENCY_TTL ?? '24h'),
    idempotencyLockMs: parseDuration(env.ACCOUNTING_IDEMPOTENCY_LOCK ?? '60s', 'ACCOUNTING_IDEMPOTENCY_LOCK'),
    credentialCacheMs: parseDuration(env.ACCOUNTING_CREDENTIAL_CACHE ?? '5s', 'ACCOUNTING_CREDENTIAL_CACHE'),
    oauth: issuer
      ? {
          issuer,
          jwksUrl: env.ACCOUNTING_OAUTH_JWKS_URL ?? `${issuer.replace(/\/$/, '')}/.well-known/jwks.json`,
          audience: env.ACCOUNTING_OAUTH_AUDIENCE || undefined,
        }
      : undefined,
    schedules: {
      noticeDays: parseDays(env.ACCOUNTING_SCHEDULE_NOTICE_DAYS, 'ACCOUNTING_SCHEDULE_NOTICE_DAYS', 3),
      catchUpDays: parseDays(env.ACCOUNTING_SCHEDULE_CATCHUP_DAYS, 'ACCOUNTING_SCHEDULE_CATCHUP_DAYS', 31),
      dueSoonDays: parseDays(env.ACCOUNTING_DUE_SOON_DAYS, 'ACCOUNTING_DUE_SOON_DAYS', 3),
    },
    webhooks: {
      // On for a laptop, off in production unless the operator says otherwise: a production
      // service must not post events to whatever listens on its own loopback.
      allowLocalhostHttp: parseBool(
        env.ACCOUNTING_WEBHOOK_ALLOW_LOCALHOST,
        'ACCOUNTING_WEBHOOK_ALLOW_LOCALHOST',
        env.NODE_ENV !== 'production',
      ),
      allowLocalhostSource:
        env.ACCOUNTING_WEBHOOK_ALLOW_LOCALHOST === undefined || env.ACCOUNTING_WEBHOOK_ALLOW_LOCALHOST === ''
          ? 'NODE_ENV'
          : 'ACCOUNTING_WEBHOOK_ALLOW_LOCALHOST',
      localhostPorts: parseLocalhostPorts(env.ACCOUNTING_WEBHOOK_LOCALHOST_PORTS),
      retrySchedule: env.ACCOUNTING_WEBHOOK_RETRY_SCHEDULE || undefined,
      secretKey: parseSecretKey(env.ACCOUNTING_SECRET_KEY),
      delivery: parseDeliverySettings(env, ConfigError),
      // At least a week, so a failed delivery can still be retried from the log after a long weekend.
      eventRetentionDays: parseDays(
        env.ACCOUNTING_EVENT_RETENTION_DAYS,
        'ACCOUNTING_EVENT_RETENTION_DAYS',
        30,
        7,
        3650,
      ),
      secretOverlapMs: parseSecretOverlap(env.ACCOUNTING_WEBHOOK_SECRET_OVERLAP),
    },
    sessions: {
      idleMs: parseDuration(env.ACCOUNTING_SESSION_IDLE ?? '2h', 'ACCOUNTING_SESSION_IDLE'),
      absoluteMs: parseDuration(env.ACCOUNTING_SESSION_MAX ?? '12h', 'ACCOUNTING_SESSION_MAX'),
      linkTtlMs: parseDuration(env.ACCOUNTING_SIGN_IN_LINK_TTL ?? '15m', 'ACCOUNTING_SIGN_IN_LINK_TTL'),
      secureCookies: !isLocalhost(publicUrl),
      signInRateLimit: parseRateLimit(
        env.ACCOUNTING_SIGN_IN_RATE_LIMIT ?? '10/15m',
        'ACCOUNTING_SIGN_IN_RATE_LIMIT',
      ),
      oidc:
        issuer && env.ACCOUNTING_OIDC_CLIENT_ID
          ? {
              issuer,
              clientId: env.ACCOUNTING_OIDC_CLIENT_ID,
              clientSecret: env.ACCOUNTING_OIDC_CLIENT_SECRET || undefined,
              redirectUri: `${publicUrl.replace(/\/$/, '')}/dashboard/sign-in/oidc/callback`,
            }
          : undefined,
    },
    inbound: parseInbound(env, host),
    referenceRates: {
      url: parseRatesUrl(env.ACCOUNTING_REFERENCE_RATES_URL),
      intervalMs: parseRatesInterval(env.ACCOUNTING_REFERENCE_RATES_INTERVAL),
    },
  };
}

/**
 * The rates source: an http(s) URL without credentials. Whether it may be reached (https on 443 or
 * 8443 to a public address, or the localhost exception of the webhook settings) is judged at each
 * fetch by the same policy as webhook deliveries, and a refusal is the job's failure code.
 */
function parseRatesUrl(text: string | undefined): string | undefined {
  const value = (text ?? '').trim();
  if (value === '') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`ACCOUNTING_REFERENCE_RATES_URL: "${value}" is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ConfigError('ACCOUNTING_REFERENCE_RATES_URL: must start with https://');
  if (url.username || url.password)
    throw new ConfigError('ACCOUNTING_REFERENCE_RATES_URL: must not carry a user name or password');
  return url.href;
}

/** Between 10 minutes (the ECB publishes once a day) and a week; 6 hours by default. */
function parseRatesInterval(text: string | undefined): number {
  if (text === undefined || text === '') return 6 * 60 * 60_000;
  const ms = parseDuration(text, 'ACCOUNTING_REFERENCE_RATES_INTERVAL');
  if (ms < 10 * 60_000 || ms > 7 * DAY)
    throw new ConfigError('ACCOUNTING_REFERENCE_RATES_INTERVAL: between 10m and 7d');
  return ms;
}

function parseInbound(env: NodeJS.ProcessEnv, host: string): InboundSettings {
  const text = env.ACCOUNTING_INBOUND_SMTP_PORT;
  const port = text === undefined || text === '' ? undefined : Number(text);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535))
    throw new ConfigError(`ACCOUNTING_INBOUND_SMTP_PORT: "${text}" is not a port`);
  const domain = (env.ACCOUNTING_INBOUND_DOMAIN || 'inbound.localhost').toLowerCase();
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/.test(domain))
    throw new ConfigError(`ACCOUNTING_INBOUND_DOMAIN: "${domain}" is not a domain name`);
  const maxText = env.ACCOUNTING_INBOUND_MAX_BYTES;
  const maxMessageBytes = maxText === undefined || maxText === '' ? 30 * 1024 * 1024 : Number(maxText);
  if (!Number.isInteger(maxMessageBytes) || maxMessageBytes < 1024 || maxMessageBytes > 100 * 1024 * 1024)
    throw new ConfigError('ACCOUNTING_INBOUND_MAX_BYTES: an integer from 1024 to 104857600');
  return { port, host: env.ACCOUNTING_INBOUND_SMTP_HOST || host, domain, maxMessageBytes };
}

/** 0 turns the overlap off (the old secret stops at once); more than a week keeps a leaked secret alive too long. */
function parseSecretOverlap(text: string | undefined): number {
  if (text === undefined || text === '') return DAY;
  const ms = text.trim() === '0' ? 0 : parseDuration(text, 'ACCOUNTING_WEBHOOK_SECRET_OVERLAP');
  if (ms > 7 * DAY) throw new ConfigError('ACCOUNTING_WEBHOOK_SECRET_OVERLAP: at most 7d');
  return ms;
}

/**
 * ACCOUNTING_WEBHOOK_LOCALHOST_PORTS: a comma-separated list of ports, or `any` (tests and
 * development). Unset or empty: no port, so the localhost exception reaches nothing (decision 411).
 */
function parseLocalhostPorts(text: string | undefined): LocalhostPorts {
  const value = (text ?? '').trim();
  if (value === '') return [];
  if (value.toLowerCase() === 'any') return 'any';
  const ports = value.split(',').map((part) => part.trim());
  for (const port of ports) {
    if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535)
      throw new ConfigError(
        `ACCOUNTING_WEBHOOK_LOCALHOST_PORTS: ${JSON.stringify(port)} is not a port; list ports 1-65535 separated by commas, or say any`,
      );
  }
  return [...new Set(ports.map(Number))];
}

/** The start-up log line of the `http://localhost` webhook exception: its state, why, and its ports. */
export function localhostExceptionNotice(config: Config): string {
  const { allowLocalhostHttp, allowLocalhostSource, localhostPorts } = config.webhooks;
  const state = allowLocalhostHttp ? 'allowed' : 'refused';
  const why =
    allowLocalhostSource === 'NODE_ENV'
      ? `default for NODE_ENV ${allowLocalhostHttp ? 'other than production' : 'production'}`
      : 'set by ACCOUNTING_WEBHOOK_ALLOW_LOCALHOST';
  if (!allowLocalhostHttp) return `webhook endpoints at http://localhost are ${state} (${why})`;
  const ports =
    localhostPorts === 'any'
      ? 'on any port (ACCOUNTING_WEBHOOK_LOCALHOST_PORTS=any)'
      : localhostPorts.length === 0
        ? 'on no port until ACCOUNTING_WEBHOOK_LOCALHOST_PORTS lists some'
        : `on ports ${localhostPorts.join(', ')} (ACCOUNTING_WEBHOOK_LOCALHOST_PORTS)`;
  return `webhook endpoints at http://localhost are ${state} (${why}) ${ports}`;
}
