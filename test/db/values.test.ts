import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asIso } from '../../src/db/values.ts';

describe('asIso', () => {
  it('keeps a canonical ISO string and normalizes every other form to one', () => {
    assert.equal(asIso('2026-11-24T22:12:26.123Z'), '2026-11-24T22:12:26.123Z');
    assert.equal(asIso(new Date(Date.UTC(2026, 10, 24, 1, 2, 3, 4))), '2026-11-24T01:02:03.004Z');
    assert.equal(asIso('2026-11-24T22:12:26Z'), '2026-11-24T22:12:26.000Z');
    assert.equal(asIso('2026-11-24 23:12:26.5+01'), '2026-11-24T22:12:26.500Z');
    assert.throws(() => asIso('not a time'), RangeError);
  });
});
