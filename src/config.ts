import { DAY, HOUR, MINUTE, SECOND } from './lib/clock.ts';
import { DEFAULT_MAIL_FROM } from './mail/sender.ts';

/** Every setting, read once from the environment (documented in docs/configuration.md). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Base address used in links we send (invitations); defaults to http://HOST:PORT. */
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  logLevel: string;
  rateLimit: { requests: number; windowMs: number };
  idempotencyTtlMs: number;
  /** A request still "running" after this long is presumed dead and its key can be taken over. */
  idempotencyLockMs: number;
  oauth: { issuer: string; jwksUrl: string; audience: string | undefined } | undefined;
  webhooks: { allowLocalhostHttp: boolean; retrySchedule: string | undefined };
}

export class ConfigError extends Error {}

/** Parses `90s`, `5m`, `24h`, `7d`, `500ms` or plain milliseconds. */
export function parseDuration(text: string, name: string): number {
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) throw new ConfigError(`${name}: "${text}" is not a duration like 30s, 5m, 24h`);
  const amount = Number(match[1]);
  const unit = match[2] ?? 'ms';
  const factor = { ms: 1, s: SECOND, m: MINUTE, h: HOUR, d: DAY }[unit] ?? 1;
  return amount * factor;
}

function parseRateLimit(text: string): { requests: number; windowMs: number } {
  const match = /^(\d+)\/(\d+(?:ms|s|m|h))$/.exec(text.trim());
  const requests = Number(match?.[1]);
  const windowMs = match?.[2] === undefined ? 0 : parseDuration(match[2], 'ACCOUNTING_RATE_LIMIT');
  if (!match || requests < 1 || windowMs < 1) {
    throw new ConfigError(`ACCOUNTING_RATE_LIMIT: "${text}" is not like 600/1m (requests per window)`);
  }
  return { requests, windowMs };
}

/** The contract promises replays for at least a day, so shorter settings are refused. */
function parseIdempotencyTtl(text: string): number {
  const ms = parseDuration(text, 'ACCOUNTING_IDEMPOTENCY_TTL');
  if (ms < DAY) throw new ConfigError('ACCOUNTING_IDEMPOTENCY_TTL: must be at least 24h');
  return ms;
}

function parseBool(text: string | undefined, fallback: boolean): boolean {
  if (text === undefined || text === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(text.toLowerCase());
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`PORT: "${env.PORT}" is not a port`);
  const host = env.HOST ?? '127.0.0.1';
  const issuer = env.ACCOUNTING_OAUTH_ISSUER;
  return {
    port,
    host,
    dataDir: env.ACCOUNTING_DATA_DIR ?? './data',
    databaseUrl: env.DATABASE_URL || undefined,
    publicUrl: (
      env.ACCOUNTING_PUBLIC_URL ?? `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`
    ).replace(/\/$/, ''),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || DEFAULT_MAIL_FROM,
    logLevel: env.LOG_LEVEL ?? 'info',
    rateLimit: parseRateLimit(env.ACCOUNTING_RATE_LIMIT ?? '600/1m'),
    idempotencyTtlMs: parseIdempotencyTtl(env.ACCOUNTING_IDEMPOTENCY_TTL ?? '24h'),
    idempotencyLockMs: parseDuration(env.ACCOUNTING_IDEMPOTENCY_LOCK ?? '60s', 'ACCOUNTING_IDEMPOTENCY_LOCK'),
    oauth: issuer
      ? {
          issuer,
          jwksUrl: env.ACCOUNTING_OAUTH_JWKS_URL ?? `${issuer.replace(/\/$/, '')}/.well-known/jwks.json`,
          audience: env.ACCOUNTING_OAUTH_AUDIENCE || undefined,
        }
      : undefined,
    webhooks: {
      allowLocalhostHttp: parseBool(env.ACCOUNTING_WEBHOOK_ALLOW_LOCALHOST, true),
      retrySchedule: env.ACCOUNTING_WEBHOOK_RETRY_SCHEDULE || undefined,
    },
  };
}
