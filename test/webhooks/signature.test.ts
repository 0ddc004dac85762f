import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import {
  DEFAULT_TOLERANCE_SECONDS,
  generateEndpointSecret,
  secretHint,
  signPayload,
  verifySignature,
} from '../../src/webhooks/signature.ts';

// The same vectors as docs/webhook-signatures.md; the hex digests were computed with
// `printf '%s' "<t>.<body>" | openssl dgst -sha256 -hmac "<secret>"`, outside Node.
const VECTORS = [
  {
    secret: 'whsec_test_secret_0123456789abcdef',
    t: 1700000000,
    body: '{"id":"evt_1","type":"invoice.paid"}',
    v1: 'dcc66ae2c7270575945c854d84e88fdb36648ce7d538e67170bbf56af203d3c8',
  },
  {
    // Non-ASCII secret and body: both enter the HMAC as UTF-8 bytes.
    secret: 'whsec_\u00fcn\u00efc\u00f6d\u00e9-s\u00e9cret',
    t: 1790000000,
    body: '{"note":"caf\u00e9 \u2615 \u2014 10 \u20ac"}',
    v1: '9cb210accf5bebc992e902e4a747de66f642cbb54d050864faa6f292c11ab4ef',
  },
  {
    secret: 'whsec_MfKQ9r8GKYqrTMhPwPJmkXoEvZ1hvxvhFHfbZV5o_GE',
    t: 1893456000,
    body: '',
    v1: '2527df1a9f24169046be4965725cff8d6f92133b98a90dc2a3e44b13dcdf5255',
  },
] as const;

const ROTATED = 'whsec_rotated_new_secret_9876543210';
const ROTATED_V1 = 'fbb04971b95d630c3aaf8b77f08a7792abb69d63d93ccdaf26b223eb9d1ab99c';

function independentHmac(secret: string, t: number, body: string): string {
  return createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
}

test('signPayload matches the literal vectors from the docs', () => {
  for (const v of VECTORS) assert.equal(signPayload(v.secret, v.t, v.body), `t=${v.t},v1=${v.v1}`);
});

test('signPayload matches an independent HMAC on arbitrary input', () => {
  for (const v of VECTORS) {
    const body = `${v.body}\r\n\u0000 trailing`;
    assert.equal(
      signPayload(v.secret, v.t + 1, body),
      `t=${v.t + 1},v1=${independentHmac(v.secret, v.t + 1, body)}`,
    );
  }
});

test('several secrets give one v1 entry each, in order', () => {
  const v = VECTORS[0];
  assert.equal(signPayload([v.secret, ROTATED], v.t, v.body), `t=${v.t},v1=${v.v1},v1=${ROTATED_V1}`);
});

test('signPayload refuses a fractional or negative timestamp and an empty secret', () => {
  assert.throws(() => signPayload('whsec_x', 1.5, ''), RangeError);
  assert.throws(() => signPayload('whsec_x', -1, ''), RangeError);
  assert.throws(() => signPayload('', 1, ''), RangeError);
  assert.throws(() => signPayload([], 1, ''), RangeError);
});

test('verifySignature accepts every vector at its own time', () => {
  for (const v of VECTORS) {
    const result = verifySignature({
      payload: v.body,
      header: `t=${v.t},v1=${v.v1}`,
      secret: v.secret,
      now: v.t,
    });
    assert.deepEqual(result, { ok: true, timestamp: v.t });
  }
});

test('tolerance boundaries: exactly 300 s either way is accepted, 301 s is not', () => {
  const v = VECTORS[0];
  const header = `t=${v.t},v1=${v.v1}`;
  const at = (now: number) => verifySignature({ payload: v.body, header, secret: v.secret, now });
  assert.equal(DEFAULT_TOLERANCE_SECONDS, 300);
  assert.equal(at(v.t + 300).ok, true);
  assert.equal(at(v.t - 300).ok, true);
  assert.deepEqual(at(v.t + 301), { ok: false, reason: 'timestamp_outside_tolerance' });
  assert.deepEqual(at(v.t - 301), { ok: false, reason: 'timestamp_outside_tolerance' });
  const narrow = verifySignature({
    payload: v.body,
    header,
    secret: v.secret,
    now: v.t + 11,
    toleranceSeconds: 10,
  });
  assert.deepEqual(narrow, { ok: false, reason: 'timestamp_outside_tolerance' });
});

test('the default clock is the system clock', () => {
  const now = Math.floor(Date.now() / 1000);
  const header = signPayload('whsec_clock', now, 'x');
  assert.equal(verifySignature({ payload: 'x', header, secret: 'whsec_clock' }).ok, true);
  const old = signPayload('whsec_clock', now - 3600, 'x');
  assert.equal(verifySignature({ payload: 'x', header: old, secret: 'whsec_clock' }).ok, false);
});

test('a tampered body, a wrong secret or a shifted timestamp is a mismatch', () => {
  const v = VECTORS[0];
  const header = `t=${v.t},v1=${v.v1}`;
  const check = (payload: string, secret: string, h = header) =>
    verifySignature({ payload, header: h, secret, now: v.t });
  assert.deepEqual(check(v.body.replace('evt_1', 'evt_2'), v.secret), {
    ok: false,
    reason: 'signature_mismatch',
  });
  assert.deepEqual(check(`${v.body} `, v.secret), { ok: false, reason: 'signature_mismatch' });
  assert.deepEqual(check(v.body, `${v.secret}x`), { ok: false, reason: 'signature_mismatch' });
  // The prefix is part of the key: a verifier that strips "whsec_" would not match.
  assert.deepEqual(check(v.body, v.secret.slice('whsec_'.length)), {
    ok: false,
    reason: 'signature_mismatch',
  });
  assert.deepEqual(check(v.body, v.secret, `t=${v.t + 1},v1=${v.v1}`), {
    ok: false,
    reason: 'signature_mismatch',
  });
  assert.deepEqual(check(v.body, v.secret, `t=${v.t},v1=${v.v1.toUpperCase()}`), {
    ok: false,
    reason: 'no_signature',
  });
});

test('multiple v1 entries: any one matching is enough, wherever it is', () => {
  const v = VECTORS[0];
  const wrong = 'ab'.repeat(32);
  for (const header of [
    `t=${v.t},v1=${wrong},v1=${v.v1}`,
    `t=${v.t},v1=${v.v1},v1=${wrong}`,
    `t=${v.t}, v0=${wrong}, v1=${wrong}, v1=${v.v1}`,
    `v1=${v.v1},t=${v.t}`,
  ]) {
    assert.equal(verifySignature({ payload: v.body, header, secret: v.secret, now: v.t }).ok, true, header);
  }
  // A receiver holding only the new secret accepts a header signed with both during rotation.
  const both = signPayload([v.secret, ROTATED], v.t, v.body);
  assert.equal(verifySignature({ payload: v.body, header: both, secret: ROTATED, now: v.t }).ok, true);
  const none = `t=${v.t},v1=${wrong},v1=${'cd'.repeat(32)}`;
  assert.deepEqual(verifySignature({ payload: v.body, header: none, secret: v.secret, now: v.t }), {
    ok: false,
    reason: 'signature_mismatch',
  });
});

test('malformed headers are refused with a reason', () => {
  const v = VECTORS[0];
  const cases: ReadonlyArray<readonly [string, string]> = [
    ['', 'malformed_header'],
    [`v1=${v.v1}`, 'malformed_header'],
    [`t=abc,v1=${v.v1}`, 'malformed_header'],
    [`t=-1,v1=${v.v1}`, 'malformed_header'],
    [`t=${v.t},t=${v.t + 1},v1=${v.v1}`, 'malformed_header'],
    [`t=${v.t},garbage,v1=${v.v1}`, 'malformed_header'],
    [`t=${v.t}`, 'no_signature'],
    [`t=${v.t},v1=${v.v1.slice(0, 63)}`, 'no_signature'],
    [`t=${v.t},v0=${v.v1}`, 'no_signature'],
  ];
  for (const [header, reason] of cases) {
    assert.deepEqual(verifySignature({ payload: v.body, header, secret: v.secret, now: v.t }), {
      ok: false,
      reason,
    });
  }
});

test('generateEndpointSecret: whsec_ plus 32 random bytes in base64url', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 50; i++) {
    const secret = generateEndpointSecret();
    assert.match(secret, /^whsec_[A-Za-z0-9_-]{43}$/);
    assert.equal(Buffer.from(secret.slice(6), 'base64url').length, 32);
    seen.add(secret);
  }
  assert.equal(seen.size, 50);
});

test('secretHint shows the prefix and the last 4 characters only', () => {
  assert.equal(secretHint('whsec_MfKQ9r8GKYqrTMhPwPJmkXoEvZ1hvxvhFHfbZV5o_GE'), 'whsec_…o_GE');
  assert.equal(secretHint('plain-secret-without-prefix'), '…efix');
  assert.equal(secretHint('whsec_short'), 'whsec_…');
  const secret = generateEndpointSecret();
  assert.equal(secretHint(secret), `whsec_…${secret.slice(-4)}`);
});
