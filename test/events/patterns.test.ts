import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { EVENT_TYPES } from '../../src/events/catalog.ts';
import { findPatternProblem, matchesAny, matchesPattern, PATTERN_SYNTAX } from '../../src/events/patterns.ts';

const segment = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/);
const eventType = fc.array(segment, { minLength: 2, maxLength: 4 }).map((parts) => parts.join('.'));

describe('event patterns', () => {
  it('matches exact names, groups at any depth and *', () => {
    const cases: Array<[string, string, boolean]> = [
      ['invoice.paid', 'invoice.paid', true],
      ['invoice.paid', 'invoice.paid.late', false],
      ['invoice.paid', 'invoice.pai', false],
      ['invoice.*', 'invoice.paid', true],
      ['invoice.*', 'invoice.payment.failed', true],
      ['invoice.*', 'invoices.paid', false],
      ['invoice.*', 'invoice', false],
      ['invoice.*', 'xinvoice.paid', false],
      ['contractor.invitation.*', 'contractor.invitation.sent', true],
      ['contractor.invitation.*', 'contractor.created', false],
      ['*', 'anything.at_all', true],
      ['Invoice.paid', 'invoice.paid', false],
    ];
    for (const [pattern, type, expected] of cases) {
      assert.equal(matchesPattern(pattern, type), expected, `${pattern} vs ${type}`);
    }
  });

  it('property: * matches everything, an exact name only itself', () => {
    fc.assert(
      fc.property(eventType, eventType, (a, b) => {
        assert.equal(matchesPattern('*', a), true);
        assert.equal(matchesPattern(a, b), a === b);
      }),
    );
  });

  it('property: a group matches exactly the types under its prefix', () => {
    fc.assert(
      fc.property(eventType, eventType, (type, other) => {
        const parts = type.split('.');
        for (let depth = 1; depth < parts.length; depth += 1) {
          const prefix = parts.slice(0, depth).join('.');
          assert.equal(matchesPattern(`${prefix}.*`, type), true);
          assert.equal(matchesPattern(`${prefix}.*`, other), other.startsWith(`${prefix}.`));
        }
        // The full type as a group does not match the type itself.
        assert.equal(matchesPattern(`${type}.*`, type), false);
      }),
    );
  });

  it('property: matchesAny is the disjunction of its patterns', () => {
    const pattern = fc.oneof(
      eventType,
      eventType.map((t) => `${t.split('.')[0]}.*`),
      fc.constant('*'),
    );
    fc.assert(
      fc.property(fc.array(pattern, { maxLength: 5 }), eventType, (patterns, type) => {
        assert.equal(
          matchesAny(patterns, type),
          patterns.some((p) => matchesPattern(p, type)),
        );
        assert.equal(matchesAny([], type), false);
      }),
    );
  });

  it('property: every generated pattern passes the syntax, odd spellings do not', () => {
    fc.assert(
      fc.property(eventType, (type) =>
        assert.ok(PATTERN_SYNTAX.test(type) && PATTERN_SYNTAX.test(`${type}.*`)),
      ),
    );
    for (const bad of [
      '',
      '.',
      'invoice.',
      '.paid',
      'invoice..paid',
      'invoice.*.paid',
      '**',
      '*.paid',
      'Invoice.Paid',
      'invoice paid',
      'invoice.paid ',
      'invoice.%',
    ]) {
      assert.equal(PATTERN_SYNTAX.test(bad), false, bad);
    }
  });

  it('refuses patterns that match nothing in the catalog', () => {
    const known = ['invoice.paid', 'contractor.invitation.sent', 'webhook.endpoint.created'];
    assert.equal(
      findPatternProblem(['*', 'invoice.paid', 'invoice.*', 'contractor.invitation.*', 'webhook.*'], known),
      undefined,
    );
    assert.deepEqual(findPatternProblem(['*', 'invoice.unpaid'], known), {
      index: 1,
      pattern: 'invoice.unpaid',
      reason: 'unknown_type',
      message: 'invoice.unpaid is not an event type.',
    });
    assert.equal(findPatternProblem(['receipt.*'], known)?.reason, 'unknown_group');
    assert.equal(findPatternProblem(['invoice.paid.*'], known)?.reason, 'unknown_group');
    assert.equal(findPatternProblem(['INVOICE.PAID'], known)?.reason, 'syntax');
  });

  it('has a catalog whose every type is a valid, unique exact pattern', () => {
    const types = EVENT_TYPES.map((d) => d.type);
    assert.equal(new Set(types).size, types.length);
    for (const type of types) assert.ok(PATTERN_SYNTAX.test(type) && !type.endsWith('.*'), type);
    assert.equal(findPatternProblem(types, types), undefined);
  });
});
