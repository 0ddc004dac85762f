import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type SendTurn, SendTurns } from '../../src/webhooks/delivery/send-turns.ts';

/** Resolves after pending promise callbacks ran. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A take whose turn is recorded when it comes. */
function waitFor(turns: SendTurns, endpointId: string, name: string, order: string[]) {
  return turns.take(endpointId).then((turn) => {
    order.push(name);
    return turn;
  });
}

describe('send turns per endpoint', () => {
  it('lets two send at once and hands later ones a turn first come first served, as soon as a success is answered', async () => {
    const turns = new SendTurns(2);
    const first = await turns.take('e');
    const second = await turns.take('e');
    assert.equal(first.waited, false);
    assert.equal(turns.sending('e'), 2);
    const order: string[] = [];
    const third = waitFor(turns, 'e', 'third', order);
    const fourth = waitFor(turns, 'e', 'fourth', order);
    assert.equal((await turns.take('other')).waited, false, 'another endpoint has turns of its own');
    assert.equal(turns.waiting, 2);
    await settle();
    assert.deepEqual(order, [], 'both wait while two are sending');
    second.answered(true);
    const thirdTurn = await third;
    assert.equal(thirdTurn.waited, true);
    assert.equal(thirdTurn.stale, false);
    assert.deepEqual(order, ['third'], 'a success frees its turn when the answer is in');
    second.giveBack();
    second.giveBack();
    await settle();
    assert.deepEqual(order, ['third'], 'giving back a freed turn frees nothing more');
    first.answered(true);
    await fourth;
    assert.deepEqual(order, ['third', 'fourth']);
    assert.equal(turns.sending('e'), 2);
    assert.equal(turns.waiting, 0);
  });

  it('keeps every waiter waiting while a failure is unwritten, then hands turns that say to read again', async () => {
    const turns = new SendTurns(2);
    const failing = await turns.take('e');
    const succeeding = await turns.take('e');
    const order: string[] = [];
    const third = waitFor(turns, 'e', 'third', order);
    const fourth = waitFor(turns, 'e', 'fourth', order);
    failing.answered(false);
    succeeding.answered(true);
    succeeding.giveBack();
    await settle();
    assert.deepEqual(order, [], 'a success does not pass its turn on while a failure is being written');
    const late = waitFor(turns, 'e', 'late', order);
    await settle();
    assert.deepEqual(order, [], 'nor does a new arrival go first');
    failing.giveBack();
    const turnsAfter: SendTurn[] = [await third, await fourth];
    assert.deepEqual(order, ['third', 'fourth']);
    assert.ok(
      turnsAfter.every((turn) => turn.stale),
      'both read their endpoint again',
    );
    turnsAfter[0]?.answered(true);
    const lateTurn = await late;
    assert.equal(lateTurn.stale, true, 'it started waiting before the failure was written');
  });

  it('counts an attempt that ended without an answer (nothing sent, an error) as unsuccessful', async () => {
    const turns = new SendTurns(1);
    const first = await turns.take('e');
    const next = turns.take('e');
    first.giveBack();
    assert.equal((await next).stale, true);
  });

  it('cancels waiting attempts on shutdown and leaves those sending alone', async () => {
    const turns = new SendTurns(1);
    const sending = await turns.take('e');
    const waiting = turns.take('e');
    turns.cancelWaiting();
    const cancelled = await waiting;
    assert.equal(cancelled.cancelled, true);
    cancelled.giveBack();
    assert.equal(turns.sending('e'), 1, 'a cancelled turn never counted');
    sending.answered(true);
    assert.equal(turns.sending('e'), 0);
    assert.equal((await turns.take('e')).waited, false, 'turns work again after a shutdown drain');
  });
});
