import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { EVENT_TYPES } from '../../src/events/catalog.ts';
import { renderEventsDoc } from '../../src/events/doc.ts';

describe('docs/events.md', () => {
  it('is the catalog as generated (run `npx tsx scripts/events-doc.ts` after changing an event type)', () => {
    const published = readFileSync(new URL('../../docs/events.md', import.meta.url), 'utf8');
    assert.equal(published, renderEventsDoc(EVENT_TYPES));
  });

  it('documents every type with its subject and data fields', () => {
    const doc = renderEventsDoc(EVENT_TYPES);
    for (const definition of EVENT_TYPES) {
      assert.ok(doc.includes(`### \`${definition.type}\``), definition.type);
      const properties = (definition.data as { properties?: Record<string, unknown> }).properties ?? {};
      for (const field of Object.keys(properties))
        assert.ok(doc.includes(`| \`${field}\` |`), `${definition.type}.${field}`);
    }
  });

  it('gives invoice.paid exactly the contract data fields, and no webhook event a secret field', () => {
    const paid = EVENT_TYPES.find((d) => d.type === 'invoice.paid');
    assert.ok(paid);
    assert.equal(paid.subjectType, 'invoice');
    const fields = Object.keys((paid.data as { properties?: object }).properties ?? {}).sort();
    assert.deepEqual(
      fields,
      [
        'number',
        'status',
        'partyId',
        'currency',
        'totalMinor',
        'amountPaidMinor',
        'balanceMinor',
        'issueDate',
        'dueDate',
        'scheduledSendDate',
      ].sort(),
    );
    for (const definition of EVENT_TYPES.filter((d) => d.type.startsWith('webhook.'))) {
      const names = Object.keys((definition.data as { properties?: object }).properties ?? {});
      assert.ok(!names.some((name) => /secret(?!Version)/i.test(name)), definition.type);
    }
  });
});
