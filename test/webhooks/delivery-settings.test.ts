import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { shouldAutoDisable } from '../../src/webhooks/delivery/auto-disable.ts';
import { retryCap } from '../../src/webhooks/delivery/queue/claimable.ts';
import {
  DEFAULT_DELIVERY_SETTINGS,
  endpointHold,
  parseDeliverySettings,
} from '../../src/webhooks/delivery/settings.ts';

describe('webhook delivery settings', () => {
  it('defaults to the contract: 10 s answer time, a lease well beyond it, 2 per endpoint', () => {
    assert.deepEqual(parseDeliverySettings({}), DEFAULT_DELIVERY_SETTINGS);
    assert.equal(DEFAULT_DELIVERY_SETTINGS.timeoutMs, 10_000);
    assert.ok(DEFAULT_DELIVERY_SETTINGS.leaseMs > DEFAULT_DELIVERY_SETTINGS.timeoutMs);
    assert.deepEqual(loadConfig({}).webhooks.delivery, DEFAULT_DELIVERY_SETTINGS);
  });

  it('reads durations and counts from the environment', () => {
    const settings = parseDeliverySettings({
      ACCOUNTING_WEBHOOK_LEASE: '3s',
      ACCOUNTING_WEBHOOK_TIMEOUT: '500ms',
      ACCOUNTING_WEBHOOK_CONCURRENCY: '4',
      ACCOUNTING_WEBHOOK_RETRY_CONCURRENCY: '2',
      ACCOUNTING_WEBHOOK_ENDPOINT_CONCURRENCY: '3',
    });
    assert.deepEqual(settings, {
      leaseMs: 3000,
      timeoutMs: 500,
      concurrency: 4,
      retryConcurrency: 2,
      endpointConcurrency: 3,
    });
  });

  const refused: Array<[string, Record<string, string>, RegExp]> = [
    ['a timeout above the contract', { ACCOUNTING_WEBHOOK_TIMEOUT: '11s' }, /TIMEOUT.*10s/],
    ['a lease that could lapse mid-attempt', { ACCOUNTING_WEBHOOK_LEASE: '10s' }, /LEASE/],
    ['a zero concurrency', { ACCOUNTING_WEBHOOK_CONCURRENCY: '0' }, /CONCURRENCY/],
    ['a fractional count', { ACCOUNTING_WEBHOOK_ENDPOINT_CONCURRENCY: '1.5' }, /ENDPOINT_CONCURRENCY/],
    ['a duration without a number', { ACCOUNTING_WEBHOOK_LEASE: 'soon' }, /LEASE/],
    ['a bad retry schedule', { ACCOUNTING_WEBHOOK_RETRY_SCHEDULE: '0,30x' }, /RETRY_SCHEDULE/],
  ];
  for (const [what, env, message] of refused) {
    it(`refuses ${what} at start, as a configuration error`, () => {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => {
          assert.ok(error instanceof ConfigError);
          assert.match(error.message, message);
          return true;
        },
      );
    });
  }

  it('holds twice the per-endpoint cap only when the lease outlasts a wait behind one attempt and its own', () => {
    assert.equal(endpointHold(DEFAULT_DELIVERY_SETTINGS), 4, '60 s lease, 10 s deadline: 2 sent, 2 waiting');
    const settings = (lease: string, timeout: string) =>
      parseDeliverySettings({ ACCOUNTING_WEBHOOK_LEASE: lease, ACCOUNTING_WEBHOOK_TIMEOUT: timeout });
    assert.equal(endpointHold(settings('21s', '10s')), 4, 'exactly two deadlines and the margin');
    assert.equal(endpointHold(settings('20s', '10s')), 2, 'a millisecond less: only what it sends');
    assert.equal(endpointHold(parseDeliverySettings({ ACCOUNTING_WEBHOOK_ENDPOINT_CONCURRENCY: '3' })), 6);
  });

  it('leaves retries at most all but one of an endpoint slots', () => {
    assert.equal(retryCap(1), 1);
    assert.equal(retryCap(2), 1);
    assert.equal(retryCap(5), 4);
  });

  it('turns off only at 20 failures with no success in the last 24 hours', () => {
    const now = new Date('2026-05-01T12:00:00.000Z');
    assert.equal(shouldAutoDisable(19, null, now), false);
    assert.equal(shouldAutoDisable(20, null, now), true);
    assert.equal(shouldAutoDisable(20, '2026-04-30T12:00:00.001Z', now), false);
    assert.equal(shouldAutoDisable(20, '2026-04-30T11:59:59.999Z', now), true);
  });
});
