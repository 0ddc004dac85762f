import { Type } from 'typebox';
import { AppError } from '../../contract/errors.ts';
import { EVENT_TYPES } from '../../events/catalog.ts';
import { findPatternProblem } from '../../events/patterns.ts';
import type { Services } from '../../services.ts';
import { checkEndpointUrl, MAX_ENDPOINT_URL_LENGTH } from '../../webhooks/url-policy.ts';

/** Input schemas and checks shared by create and update. */

export const MAX_PATTERNS = 50;

export const UrlInput = Type.String({
  minLength: 1,
  maxLength: MAX_ENDPOINT_URL_LENGTH,
  description:
    'Receiver address: https, port 443 or 8443, public host; http://localhost only where the operator allows it.',
});

export const DescriptionInput = Type.String({
  maxLength: 500,
  description: 'Free text label, up to 500 characters.',
});

export const EventsInput = Type.Array(
  Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'An event type, a group such as invoice.*, or *.',
  }),
  {
    minItems: 1,
    maxItems: MAX_PATTERNS,
    uniqueItems: true,
    description: `1-${MAX_PATTERNS} distinct patterns: exact types (invoice.paid), groups (invoice.* matches every type under invoice., at any depth) or *.`,
  },
);

/** The normalized URL to store (WHATWG serialization), or 400 `webhook_url_not_allowed`. */
export function checkUrl(services: Services, raw: string): string {
  const verdict = checkEndpointUrl(raw, { allowLocalhostHttp: services.config.webhooks.allowLocalhostHttp });
  if (!verdict.ok) {
    throw new AppError('webhook_url_not_allowed', verdict.message, {
      field: 'url',
      details: { reason: verdict.code },
    });
  }
  return verdict.url.href;
}

/** Every pattern must match at least one catalog type; a typo is refused, not stored. */
export function checkPatterns(patterns: readonly string[]): void {
  const problem = findPatternProblem(
    patterns,
    EVENT_TYPES.map((definition) => definition.type),
  );
  if (!problem) return;
  const field = `events.${problem.index}`;
  if (problem.reason === 'syntax') throw new AppError('invalid_input', problem.message, { field });
  throw new AppError('unknown_event_type', problem.message, { field, details: { pattern: problem.pattern } });
}
