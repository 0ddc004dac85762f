import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { invitationRetryAfterSeconds, invitationStatus } from '../../src/invitations/rules.ts';
import { invitationToken, isTokenShaped, tokenHash } from '../../src/invitations/token.ts';
import { DAY, HOUR } from '../../src/lib/clock.ts';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

describe('invitation rules', () => {
  it('reports an open invitation as expired from its expiry instant on', () => {
    const expiresAt = NOW.toISOString();
    assert.equal(
      invitationStatus({ status: 'open', expires_at: expiresAt }, new Date(NOW.getTime() - 1)),
      'open',
    );
    assert.equal(invitationStatus({ status: 'open', expires_at: expiresAt }, NOW), 'expired');
    assert.equal(invitationStatus({ status: 'revoked', expires_at: expiresAt }, new Date(0)), 'revoked');
  });

  it('allows fewer than 3 in the window and names the wait for the 4th', () => {
    assert.equal(invitationRetryAfterSeconds([], NOW), undefined);
    assert.equal(invitationRetryAfterSeconds([ago(HOUR), ago(2 * HOUR)], NOW), undefined);
    assert.equal(invitationRetryAfterSeconds([ago(HOUR), ago(5 * HOUR), ago(3 * HOUR)], NOW), 19 * 3600);
    assert.equal(invitationRetryAfterSeconds([ago(DAY - 1), ago(1), ago(2)], NOW), 1);
  });

  it('property: waiting Retry-After seconds always frees a slot, one second less never does', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: DAY - 1 }), { minLength: 3, maxLength: 6 }), (ages) => {
        const created = ages.map(ago);
        const wait = invitationRetryAfterSeconds(created, NOW);
        assert.ok(wait !== undefined && wait >= 1);
        const inWindow = (at: Date) => created.filter((c) => Date.parse(c) > at.getTime() - DAY);
        const later = new Date(NOW.getTime() + wait * 1000);
        assert.equal(invitationRetryAfterSeconds(inWindow(later), later), undefined);
        if (wait > 1) {
          const sooner = new Date(NOW.getTime() + (wait - 1) * 1000);
          assert.notEqual(invitationRetryAfterSeconds(inWindow(sooner), sooner), undefined);
        }
      }),
    );
  });
});

describe('invitation tokens', () => {
  const secret = Buffer.alloc(32, 7);
  it('derives a 43-character base64url token per invitation and secret', () => {
    const a = invitationToken(secret, '01900000-0000-7000-8000-000000000001');
    const b = invitationToken(secret, '01900000-0000-7000-8000-000000000002');
    assert.ok(isTokenShaped(a));
    assert.notEqual(a, b);
    assert.equal(invitationToken(secret, '01900000-0000-7000-8000-000000000001'), a, 'stable');
    assert.notEqual(invitationToken(Buffer.alloc(32, 8), '01900000-0000-7000-8000-000000000001'), a);
    assert.match(tokenHash(a), /^[0-9a-f]{64}$/);
    assert.ok(!isTokenShaped(`${a}x`));
    assert.ok(!isTokenShaped(a.replace(/^./, '/')));
  });
});
