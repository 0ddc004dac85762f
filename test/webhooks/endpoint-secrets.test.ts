import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  generateSecret,
  INSTANCE_KEY_ID,
  loadSealingKeys,
  loadSigningSecret,
  openSecret,
  SecretUnavailableError,
  sealSecret,
  secretHint,
} from '../../src/webhooks/endpoint-secrets.ts';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/databases.ts';

const binding = {
  organizationId: '0191a3b4-0000-7000-8000-000000000001',
  endpointId: '0191a3b4-0000-7000-8000-000000000002',
};
const OPERATOR_KEY = 'an-operator-key-of-at-least-32-characters!';

for (const dialect of DIALECTS) {
  describe(`endpoint secrets at rest (${dialect})`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await createTestDatabase(dialect);
    });
    after(() => database.drop());

    it('makes whsec_ secrets with a four-character hint', () => {
      const secret = generateSecret();
      assert.match(secret, /^whsec_[A-Za-z0-9_-]{43}$/);
      assert.equal(secretHint(secret), `whsec_…${secret.slice(-4)}`);
      assert.notEqual(generateSecret(), secret);
    });

    it('seals with the instance key made by the migration and opens again', async () => {
      const keys = await loadSealingKeys(database.db.kysely, undefined);
      assert.equal(keys.currentId, INSTANCE_KEY_ID);
      const secret = generateSecret();
      const sealed = sealSecret(keys, secret, binding);
      assert.ok(!sealed.includes(secret));
      assert.ok(!sealed.includes(secret.slice(6)));
      assert.match(sealed, /^v1\.db\./);
      assert.notEqual(sealSecret(keys, secret, binding), sealed, 'a fresh IV every time');
      assert.equal(openSecret(keys, sealed, binding), secret);
      const row = { id: binding.endpointId, organization_id: binding.organizationId, secret: sealed };
      assert.equal(await loadSigningSecret(database.db.kysely, row, undefined), secret);
    });

    it('does not open a sealed value moved to another endpoint or organization', async () => {
      const keys = await loadSealingKeys(database.db.kysely, undefined);
      const sealed = sealSecret(keys, 'whsec_x', binding);
      assert.throws(
        () => openSecret(keys, sealed, { ...binding, endpointId: binding.organizationId }),
        SecretUnavailableError,
      );
      // Flip one bit of the tag (decoded, so base64 padding bits cannot hide the change).
      const parts = sealed.split('.');
      const tag = Buffer.from(parts[4] ?? '', 'base64url');
      tag[0] = (tag[0] ?? 0) ^ 1;
      const tampered = [...parts.slice(0, 4), tag.toString('base64url')].join('.');
      assert.throws(() => openSecret(keys, tampered, binding), SecretUnavailableError);
      assert.throws(() => openSecret(keys, 'whsec_plain', binding), SecretUnavailableError);
    });

    it('uses the operator key when set and still opens secrets sealed before it was set', async () => {
      const db = database.db.kysely;
      const before = sealSecret(await loadSealingKeys(db, undefined), 'whsec_before', binding);
      const keys = await loadSealingKeys(db, OPERATOR_KEY);
      assert.match(keys.currentId, /^env-[0-9a-f]{12}$/);
      const sealed = sealSecret(keys, 'whsec_after', binding);
      assert.equal(openSecret(keys, sealed, binding), 'whsec_after');
      assert.equal(openSecret(keys, before, binding), 'whsec_before');
      // Without the operator key (or with another one) the value cannot be opened.
      const row = { id: binding.endpointId, organization_id: binding.organizationId, secret: sealed };
      await assert.rejects(loadSigningSecret(db, row, undefined), SecretUnavailableError);
      await assert.rejects(loadSigningSecret(db, row, `${OPERATOR_KEY}-other`), /not configured/);
    });

    it('keeps the instance key per database', async () => {
      const other = await createTestDatabase(dialect);
      try {
        const a = await loadSealingKeys(database.db.kysely, undefined);
        const b = await loadSealingKeys(other.db.kysely, undefined);
        assert.notDeepEqual(a.byId.get(INSTANCE_KEY_ID), b.byId.get(INSTANCE_KEY_ID));
      } finally {
        await other.drop();
      }
    });
  });
}
