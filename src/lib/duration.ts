import { DAY, HOUR, MINUTE, SECOND } from './clock.ts';

const MAX_DURATION_MS = 3650 * DAY;

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: SECOND, m: MINUTE, h: HOUR, d: DAY };

/**
 * `500ms`, `30s`, `5m`, `24h`, `7d`, or a bare number of milliseconds, at most ten years; undefined
 * when the text is none of these. The one syntax of every duration setting (docs/configuration.md); the webhook
 * retry schedule, a list, has its own (src/webhooks/retry-schedule.ts).
 */
export function parseDurationMs(text: string): number | undefined {
  const match = /^(\d{1,12})(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) return undefined;
  const ms = Number(match[1]) * (UNIT_MS[match[2] ?? 'ms'] ?? 1);
  // Beyond ten years a setting is a typo, and beyond a few thousand it breaks date arithmetic.
  return ms <= MAX_DURATION_MS ? ms : undefined;
}
