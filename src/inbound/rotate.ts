import { revisionConflict } from '../contract/errors.ts';
import type { UnitOfWork } from '../unit/unit-of-work.ts';
import { type InboundAddressRow, liveAddress, rotateInboundAddress } from './addresses.ts';

/**
 * Rotates the organization's address of one purpose (receipts inbox, company mail) as a change:
 * a stale `expectedRevision` is 409 with the live revision, and the rotation is audited as one
 * record whose revision grows. Returns the new live address.
 */
export async function rotateAddressAsChange(
  unit: Pick<UnitOfWork, 'db' | 'organizationId' | 'clock' | 'audit'>,
  purpose: string,
  expectedRevision: number,
): Promise<InboundAddressRow> {
  const now = unit.clock.now().toISOString();
  const rotated = await rotateInboundAddress(unit.db, unit.organizationId, purpose, expectedRevision, now);
  if (!rotated) {
    const live = await liveAddress(unit.db, unit.organizationId, purpose);
    throw revisionConflict(live?.revision ?? 1);
  }
  await unit.audit({
    recordType: 'inbound_address',
    recordId: rotated.current.id,
    beforeRevision: rotated.retired.revision,
    afterRevision: rotated.current.revision,
  });
  return rotated.current;
}
