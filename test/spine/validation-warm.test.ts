import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OPERATIONS } from '../../src/operations/catalog.ts';
import { validateInput, warmValidators } from '../../src/operations/validation.ts';

/** `serve` compiles every operation's validator once it listens, one per turn of the event loop. */
describe('validators compiled ahead of the first call', () => {
  it('compiles the whole catalog once, letting other work run between compiles', async () => {
    const schemas = OPERATIONS.map((operation) => operation.input);
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns += 1;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const compiled = await warmValidators(schemas);
    ticking = false;
    assert.equal(compiled, new Set(schemas).size);
    // Other callbacks ran between the compiles, not only before or after the whole catalog.
    assert.ok(turns >= compiled / 2, `${turns} turns for ${compiled} compiles`);
    // A second warm-up finds every validator compiled, and the warm ones validate as before.
    assert.equal(await warmValidators(schemas), 0);
    for (const operation of OPERATIONS) {
      if (operation.example) validateInput(operation.input, structuredClone(operation.example));
    }
    assert.throws(
      () => validateInput(schemas[0] as (typeof schemas)[number], { unexpected: true }),
      (error: Error & { code?: string }) => error.code === 'unknown_field',
    );
  });
});
