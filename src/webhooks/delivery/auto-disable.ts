// Turning an endpoint off from the delivery worker (contract, Events item 5 and 7).

import { dbBool } from '../../db/values.ts';
import { DAY } from '../../lib/clock.ts';
import type { UnitOfWork } from '../../unit/unit-of-work.ts';
import { changeEndpoint, selectEndpoint } from '../endpoints.ts';
import { cancelPendingDeliveries } from './queue/cancel.ts';

export type DisableReason = 'consecutive_failures' | 'gone';

/** The contract's condition: 20 failed attempts in a row with no success in the last day. */
export const DISABLE_AFTER_FAILURES = 20;
export const NO_SUCCESS_WINDOW_MS = DAY;

export function shouldAutoDisable(failureCount: number, lastSuccessAt: string | null, now: Date): boolean {
  if (failureCount < DISABLE_AFTER_FAILURES) return false;
  return lastSuccessAt === null || now.getTime() - new Date(lastSuccessAt).getTime() > NO_SUCCESS_WINDOW_MS;
}

const REASON_TEXT: Record<DisableReason, string> = {
  consecutive_failures: `${DISABLE_AFTER_FAILURES} delivery attempts in a row failed and none succeeded in the last 24 hours.`,
  gone: 'The receiver answered 410 Gone, which asks us to stop sending.',
};

/**
 * Turns the endpoint off (active false, status 'disabled', disabled_reason, disabled_at, revision + 1,
 * audited), cancels its pending deliveries (webhooks.deliveries.retry brings any of them back once the
 * endpoint is on again), records `webhook.endpoint.disabled` and emails every active admin of the
 * organization, all in the unit's transaction. Returns false when the endpoint was not active
 * (already turned off by a concurrent attempt, archived): nothing happens then.
 */
export async function disableEndpoint(
  unit: UnitOfWork,
  input: { endpointId: string; reason: DisableReason; failureCount: number },
): Promise<boolean> {
  const { db, organizationId } = unit;
  const endpoint = await selectEndpoint(db, organizationId, input.endpointId);
  if (endpoint?.status !== 'active') return false;
  // Our transaction already holds the endpoint row (outcome.ts updates it first), so the revision
  // read here is still current and changeEndpoint's compare-and-set succeeds.
  await changeEndpoint(unit, endpoint, {
    active: dbBool(false),
    status: 'disabled',
    disabled_reason: input.reason,
    disabled_at: unit.clock.now().toISOString(),
  });
  const cancelled = await cancelPendingDeliveries(unit, endpoint.id, `endpoint turned off (${input.reason})`);
  await unit.emit({
    type: 'webhook.endpoint.disabled',
    subject: { type: 'webhook_endpoint', id: endpoint.id },
    data: { url: endpoint.url, reason: input.reason, failureCount: input.failureCount },
  });
  const admins = await db
    .selectFrom('members')
    .select('email')
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'admin')
    .where('status', '=', 'active')
    .orderBy('email')
    .execute();
  const text = [
    `The webhook endpoint ${endpoint.url} (id ${endpoint.id}) was turned off at ${unit.clock.now().toISOString()}.`,
    '',
    `Reason: ${REASON_TEXT[input.reason]}`,
    '',
    `${cancelled} deliveries waiting for it were cancelled; new events are not sent to it.`,
    'Once the receiver works again, an administrator can turn the endpoint back on and send',
    'cancelled or failed deliveries again from the delivery log (webhooks.deliveries.retry).',
  ].join('\n');
  // One message per admin: recipients do not see each other's addresses.
  for (const admin of admins) {
    await unit.sendMail({
      to: [admin.email],
      subject: 'Webhook endpoint turned off',
      text,
      tags: { kind: 'webhook.endpoint.disabled' },
    });
  }
  return true;
}
