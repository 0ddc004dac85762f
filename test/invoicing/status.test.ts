import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { InvoicingError } from '../../src/invoicing/errors.ts';
import {
  applyPayment,
  balanceOf,
  canTransition,
  type InvoiceStatus,
  isOverdue,
  statusAfterSend,
  statusAfterVoid,
} from '../../src/invoicing/status.ts';

const STATUSES: InvoiceStatus[] = ['draft', 'sent', 'paid', 'void'];
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof InvoicingError) return error.code;
    throw error;
  }
  return 'ok';
};

describe('invoice status', () => {
  test('the transition graph: draft -> sent -> paid, draft/sent -> void, paid and void final', () => {
    const allowed = STATUSES.flatMap((from) =>
      STATUSES.filter((to) => canTransition(from, to)).map((to) => `${from}->${to}`),
    );
    assert.deepEqual(allowed, ['draft->sent', 'draft->void', 'sent->paid', 'sent->void']);
  });

  test('send and void', () => {
    const draft = { status: 'draft', totalMinor: 500n, amountPaidMinor: 0n } as const;
    assert.equal(statusAfterSend(draft), 'sent');
    assert.equal(statusAfterSend({ ...draft, totalMinor: 0n }), 'paid');
    assert.equal(
      codeOf(() => statusAfterSend({ ...draft, status: 'sent' })),
      'invalid_transition',
    );
    assert.equal(statusAfterVoid(draft), 'void');
    assert.equal(statusAfterVoid({ ...draft, status: 'sent' }), 'void');
    assert.equal(
      codeOf(() => statusAfterVoid({ ...draft, status: 'sent', amountPaidMinor: 1n })),
      'invalid_transition',
    );
    assert.equal(
      codeOf(() => statusAfterVoid({ ...draft, status: 'paid', amountPaidMinor: 500n })),
      'invalid_transition',
    );
    assert.equal(
      codeOf(() => statusAfterVoid({ ...draft, status: 'void' })),
      'invalid_transition',
    );
  });

  test('payments: partial, exact, over the balance, on the wrong status', () => {
    const sent = { status: 'sent', totalMinor: 1000n, amountPaidMinor: 0n } as const;
    assert.deepEqual(applyPayment(sent, 400n), {
      status: 'sent',
      amountPaidMinor: 400n,
      balanceMinor: 600n,
      becamePaid: false,
    });
    assert.deepEqual(applyPayment({ ...sent, amountPaidMinor: 400n }, 600n), {
      status: 'paid',
      amountPaidMinor: 1000n,
      balanceMinor: 0n,
      becamePaid: true,
    });
    assert.equal(
      codeOf(() => applyPayment({ ...sent, amountPaidMinor: 400n }, 601n)),
      'payment_exceeds_balance',
    );
    assert.equal(
      codeOf(() => applyPayment(sent, 0n)),
      'invalid_payment',
    );
    assert.equal(
      codeOf(() => applyPayment(sent, -1n)),
      'invalid_payment',
    );
    for (const status of ['draft', 'paid', 'void'] as const) {
      assert.equal(
        codeOf(() => applyPayment({ ...sent, status }, 1n)),
        'invalid_transition',
        status,
      );
    }
  });

  test('any sequence of payments keeps paid + balance = total and never overpays', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.array(fc.bigInt({ min: 1n, max: 10n ** 12n })),
        (total, payments) => {
          let invoice: { status: InvoiceStatus; totalMinor: bigint; amountPaidMinor: bigint } = {
            status: 'sent',
            totalMinor: total,
            amountPaidMinor: 0n,
          };
          let paidEvents = 0;
          for (const payment of payments) {
            const before = balanceOf(invoice);
            const code = codeOf(() => applyPayment(invoice, payment));
            if (invoice.status === 'paid') assert.equal(code, 'invalid_transition');
            else if (payment > before) assert.equal(code, 'payment_exceeds_balance');
            if (code !== 'ok') continue;
            const outcome = applyPayment(invoice, payment);
            if (outcome.becamePaid) paidEvents += 1;
            invoice = { ...invoice, status: outcome.status, amountPaidMinor: outcome.amountPaidMinor };
            assert.equal(outcome.amountPaidMinor + outcome.balanceMinor, total);
          }
          assert.ok(invoice.amountPaidMinor <= total);
          assert.equal(paidEvents, invoice.status === 'paid' ? 1 : 0);
        },
      ),
    );
  });

  test('overdue is derived: sent, unpaid balance, due date before today', () => {
    const invoice = { status: 'sent', dueDate: '2025-03-31', balanceMinor: 10n } as const;
    assert.equal(isOverdue(invoice, '2025-03-31'), false);
    assert.equal(isOverdue(invoice, '2025-04-01'), true);
    assert.equal(isOverdue({ ...invoice, balanceMinor: 0n }, '2025-04-01'), false);
    assert.equal(isOverdue({ ...invoice, status: 'draft' }, '2025-04-01'), false);
    assert.equal(isOverdue({ ...invoice, status: 'void' }, '2025-04-01'), false);
  });
});
