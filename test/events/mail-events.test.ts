import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EVENT_TYPES } from '../../src/events/catalog.ts';
import { eventNonConformance } from '../../src/events/conformance.ts';
import { mailCaller, op, storedEvents, upload } from '../operations/mail/helpers.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';

/**
 * Contract: mail events never include sender, subject or content. Two checks over every mail
 * event type: its catalog schema allows only ids, channel, dates and counts (closed objects, so
 * nothing undocumented can ride along), and the events really emitted conform to it and do not
 * contain the letter's sender, subject or bytes anywhere.
 */

const MAIL_EVENTS = EVENT_TYPES.filter((definition) => definition.type.startsWith('mail.'));

/** What a mail event's data may hold: a channel, dates, counts (ids travel as the subject). */
function allowedField(name: string, schema: Record<string, unknown>): boolean {
  if (name === 'channel') return Array.isArray(schema.anyOf);
  if (/At$/.test(name)) return schema.type === 'string' && schema.format === 'date-time';
  if (/Count$|Bytes$/.test(name)) return schema.type === 'integer';
  if (/Id$/.test(name)) return schema.type === 'string';
  return false;
}

it('every mail event type carries only ids, channel, dates and counts, in a closed object', () => {
  assert.deepEqual(MAIL_EVENTS.map((d) => d.type).sort(), ['mail.archived', 'mail.received']);
  for (const definition of MAIL_EVENTS) {
    const data = definition.data as {
      properties?: Record<string, Record<string, unknown>>;
      additionalProperties?: unknown;
    };
    assert.equal(definition.subjectType, 'mail_item');
    assert.equal(data.additionalProperties, false, `${definition.type} data is closed`);
    for (const [name, schema] of Object.entries(data.properties ?? {})) {
      assert.ok(
        allowedField(name, schema),
        `${definition.type}.${name} is not an id, channel, date or count`,
      );
    }
  }
  // The check itself catches a leak (a deliberately wrong field).
  assert.equal(allowedField('sender', { type: 'string' }), false);
  assert.equal(allowedField('subject', { type: 'string' }), false);
});

for (const dialect of DIALECTS) {
  describe(`mail events as emitted (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app?.close());

    it('conform to the catalog and never contain the sender, subject or file content', async () => {
      const caller = await mailCaller(app);
      const sender = 'Sender-Zq7 Lawyers LLP';
      const subject = 'Subject-Kx9 confidential settlement';
      const made = await upload(app, caller, { sender, subject });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      await op(app, caller, 'mail.items.archive', { id: made.data.id, expectedRevision: 1 });
      const events = await storedEvents(app, caller.organizationId);
      assert.deepEqual(
        events.map((e) => e.type).sort(),
        MAIL_EVENTS.map((d) => d.type).sort(),
        'every mail event type emitted',
      );
      const contentB64 = String((made.data.files as Array<{ sha256: string }>)[0]?.sha256);
      for (const event of events) {
        const definition = MAIL_EVENTS.find((d) => d.type === event.type);
        assert.ok(definition);
        const input = {
          type: event.type,
          subject: { type: String(event.subject_type), id: String(event.subject_id) },
          data: event.data,
        };
        assert.equal(eventNonConformance(definition, input), null, event.type);
        const text = JSON.stringify(event);
        for (const secret of [sender, 'Sender-Zq7', subject, 'Subject-Kx9', 'JVBER', contentB64]) {
          assert.ok(!text.includes(secret), `${event.type} contains ${secret}`);
        }
      }
    });
  });
}
