/**
 * Endpoint event patterns (docs/webhooks.md, "Patterns"):
 * - `*` matches every type;
 * - `<prefix>.*` matches every type that starts with `<prefix>.`, at any depth: `invoice.*` matches
 *   `invoice.paid` and `invoice.payment.failed`; `contractor.invitation.*` narrows to one sub-group;
 * - anything else matches exactly that type.
 * Matching is case-sensitive; stored patterns are always lowercase (the syntax allows nothing else).
 */

/** Segments of lowercase letters, digits and underscores, dot-separated, optionally ending in `.*`. */
export const PATTERN_SYNTAX = /^(?:\*|[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)*(?:\.\*)?)$/;

export function matchesPattern(pattern: string, type: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return type.startsWith(pattern.slice(0, -1));
  return pattern === type;
}

export function matchesAny(patterns: readonly string[], type: string): boolean {
  return patterns.some((pattern) => matchesPattern(pattern, type));
}

export interface PatternProblem {
  index: number;
  pattern: string;
  reason: 'syntax' | 'unknown_type' | 'unknown_group';
  message: string;
}

/**
 * The first pattern that cannot match anything in the catalog: bad syntax, an exact type the
 * catalog does not have, or a group no catalog type belongs to. Such patterns are refused rather
 * than stored, so a typo never silently receives nothing.
 */
export function findPatternProblem(
  patterns: readonly string[],
  knownTypes: readonly string[],
): PatternProblem | undefined {
  for (const [index, pattern] of patterns.entries()) {
    if (!PATTERN_SYNTAX.test(pattern)) {
      return {
        index,
        pattern,
        reason: 'syntax',
        message: `"${pattern}" is not an event type, a group such as invoice.*, or *.`,
      };
    }
    if (pattern === '*') continue;
    if (pattern.endsWith('.*')) {
      if (!knownTypes.some((type) => matchesPattern(pattern, type))) {
        return { index, pattern, reason: 'unknown_group', message: `No event type belongs to ${pattern}.` };
      }
    } else if (!knownTypes.includes(pattern)) {
      return { index, pattern, reason: 'unknown_type', message: `${pattern} is not an event type.` };
    }
  }
  return undefined;
}
