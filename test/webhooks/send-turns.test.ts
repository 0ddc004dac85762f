import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SendTurns } from '../../src/webhooks/delivery/send-turns.ts';

describe('send turns per endpoint', () => {
  it('lets the first two send at once and hands later ones a turn, first come first served', async () => {
    const turns = new SendTurns(2);
    const first = await turns.take('e');
    const second = await turns.take('e');
    assert.equal(first.waited, false);
    assert.equal(second.waited, false);
    assert.equal(turns.sending('e'), 2);
    const order: string[] = [];
    const third = turns.take('e').then((turn) => {
      order.push('third');
      return turn;
    });
    const fourth = turns.take('e').then((turn) => {
      order.push('fourth');
      return turn;
    });
    // Another endpoint has turns of its own.
    assert.equal((await turns.take('other')).waited, false);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(order, [], 'both wait while two are sending');
    second.giveBack();
    const thirdTurn = await third;
    assert.equal(thirdTurn.waited, true);
    assert.equal(thirdTurn.afterFailure, false);
    assert.deepEqual(order, ['third']);
    assert.equal(turns.sending('e'), 2, 'the turn passed on: still two sending');
    first.giveBack(true);
    const fourthTurn = await fourth;
    assert.equal(fourthTurn.afterFailure, true, 'a turn passed on after a failure says so');
    assert.deepEqual(order, ['third', 'fourth']);
    thirdTurn.giveBack();
    thirdTurn.giveBack();
    assert.equal(turns.sending('e'), 1, 'a second give-back of one turn counts for nothing');
    fourthTurn.giveBack();
    assert.equal(turns.sending('e'), 0);
  });
});
