import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { consolidationReason } from '../../../src/receipts/consolidation/confirm.ts';

/** Issue 27: the reason's 10-1000 limit counts characters (code points), not UTF-16 units. */
describe('consolidation reason length', () => {
  it('600 emoji are 600 characters, accepted; 1001 are refused; blanks do not count', () => {
    assert.equal(consolidationReason('🧾'.repeat(600)), '🧾'.repeat(600));
    assert.equal(consolidationReason('🧾'.repeat(1000)).length, 2000);
    assert.throws(() => consolidationReason('🧾'.repeat(1001)), /10-1000 characters/);
    assert.throws(() => consolidationReason(`   ${'🧾'.repeat(9)}   `), /10-1000 characters/);
  });
});
