import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertValidMailMessage } from '../../src/mail/message.ts';
import {
  agreementWaiting,
  contractorInvitation,
  escapeHtml,
  invoiceDeadlineSoon,
  invoiceSent,
  payoutPaid,
  type RenderedMail,
  scheduleUpcomingNotice,
  webhookEndpointDisabled,
} from '../../src/mail/templates/index.ts';

// A name that breaks out of markup and attributes if it is not escaped, with a line break
// that would break the subject header if it were copied into it as is.
const HOSTILE = `Acme <script>alert("x")</script> & O'Brien\r\nBcc: spy@evil.test`;
const ESCAPED = 'Acme &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; O&#39;Brien';
const PDF = Buffer.from('%PDF-1.7 test bytes');

const rendered: Record<string, RenderedMail> = {
  agreementWaiting: agreementWaiting({
    organizationName: HOSTILE,
    contractorName: HOSTILE,
    title: HOSTILE,
    portalLink: 'https://books.example.com/portal/agreements/01927f3e-6a1c-7b2d-8e4f-0123456789ab',
  }),
  payoutPaid: payoutPaid({
    organizationName: HOSTILE,
    contractorName: HOSTILE,
    amountFormatted: 'CAD 1,234.56',
    periodStart: '2026-09-01',
    periodEnd: '2026-09-30',
    paidOn: '2026-10-01',
    reference: HOSTILE,
    portalLink: 'https://books.example.com/portal/payments',
  }),
  contractorInvitation: contractorInvitation({
    organizationName: HOSTILE,
    contractorName: HOSTILE,
    link: 'https://portal.example.com/invitations/accept?token=abc&lang=en',
    expiresAt: '2026-11-29T15:18:42.000Z',
  }),
  webhookEndpointDisabled: webhookEndpointDisabled({
    organizationName: HOSTILE,
    endpointUrl: `https://hooks.example.com/in?a=1&b="2"`,
    reason: HOSTILE,
    disabledAt: '2026-11-22T08:00:00.000Z',
  }),
  invoiceSent: invoiceSent({
    organizationName: HOSTILE,
    partyName: HOSTILE,
    number: 'INV-2026-007',
    totalFormatted: '€1,234.50',
    dueDate: '2026-12-15',
    pdf: PDF,
  }),
  invoiceDeadlineSoon: invoiceDeadlineSoon({
    organizationName: HOSTILE,
    partyName: HOSTILE,
    number: 'INV-2026-007',
    balanceFormatted: '€234.50',
    dueDate: '2026-12-15',
  }),
  scheduleUpcomingNotice: scheduleUpcomingNotice({
    organizationName: HOSTILE,
    scheduleType: 'payment-plan',
    scheduleName: HOSTILE,
    partyName: HOSTILE,
    amountFormatted: '$500.00',
    nextRunDate: '2026-12-01',
  }),
};

describe('mail templates', () => {
  for (const [name, mail] of Object.entries(rendered)) {
    it(`${name}: escapes every value in the HTML part`, () => {
      assert.ok(mail.html.includes(ESCAPED), 'escaped name missing');
      assert.equal(mail.html.includes('<script>'), false);
      assert.equal(mail.html.includes(`O'Brien`), false);
    });

    it(`${name}: keeps the text part unescaped and the subject on one line`, () => {
      assert.ok(mail.text.includes(`Acme <script>alert("x")</script> & O'Brien`));
      assert.equal(mail.text.includes('&amp;'), false);
      assert.equal(/[\r\n]/.test(mail.subject), false);
      assert.ok(mail.subject.includes(`O'Brien Bcc: spy@evil.test`));
      // What a template renders is always sendable.
      assertValidMailMessage({ to: ['ana@example.com'], ...mail });
    });
  }

  it('puts the invitation link in both parts, escaped inside the href', () => {
    const mail = rendered.contractorInvitation;
    assert.ok(mail);
    assert.equal(mail.tags.kind, 'contractor.invitation');
    assert.ok(mail.text.includes('https://portal.example.com/invitations/accept?token=abc&lang=en'));
    assert.ok(
      mail.html.includes('href="https://portal.example.com/invitations/accept?token=abc&amp;lang=en"'),
    );
    assert.ok(mail.text.includes('2026-11-29 15:18 UTC'));
  });

  it('refuses an invitation link that is not http(s)', () => {
    for (const link of ['javascript:alert(1)', 'data:text/html,<b>x</b>', '/relative/path']) {
      assert.throws(
        () =>
          contractorInvitation({
            organizationName: 'Acme',
            contractorName: 'Ana',
            link,
            expiresAt: '2026-11-29T15:18:42.000Z',
          }),
        RangeError,
      );
    }
  });

  it('shows a disabled endpoint as text, not as a link', () => {
    const mail = rendered.webhookEndpointDisabled;
    assert.ok(mail);
    assert.equal(mail.html.includes('<a '), false);
    assert.ok(mail.html.includes('https://hooks.example.com/in?a=1&amp;b=&quot;2&quot;'));
    assert.ok(mail.text.includes('Turned off at: 2026-11-22 08:00 UTC'));
  });

  it('attaches the invoice PDF as invoice-<number>.pdf, bytes unchanged', () => {
    const mail = rendered.invoiceSent;
    assert.ok(mail);
    assert.deepEqual(mail.attachments, [
      { filename: 'invoice-INV-2026-007.pdf', contentType: 'application/pdf', content: PDF },
    ]);
    assert.ok(mail.text.includes('Total: €1,234.50'));
    assert.ok(mail.text.includes('Due date: 2026-12-15'));
  });

  it('turns an invoice number with a slash into a plain file name', () => {
    const mail = invoiceSent({
      organizationName: 'Acme',
      partyName: 'Beta',
      number: '2026/014',
      totalFormatted: '$1.00',
      dueDate: '2026-12-15',
      pdf: PDF,
    });
    assert.equal(mail.attachments?.[0]?.filename, 'invoice-2026-014.pdf');
  });

  it('names the schedule type and date of an upcoming run', () => {
    const mail = scheduleUpcomingNotice({
      organizationName: 'Acme',
      scheduleType: 'recurring-invoice',
      scheduleName: 'Monthly retainer',
      partyName: 'Beta',
      amountFormatted: '$500.00',
      nextRunDate: '2026-12-01',
    });
    assert.equal(
      mail.subject,
      'Acme: the recurring invoice "Monthly retainer" sends its next invoice on 2026-12-01',
    );
    assert.equal(mail.tags.kind, 'invoice.schedule_upcoming');
  });

  it('refuses dates and timestamps it cannot show', () => {
    assert.throws(
      () =>
        invoiceDeadlineSoon({
          organizationName: 'Acme',
          partyName: 'Beta',
          number: '7',
          balanceFormatted: '$1.00',
          dueDate: '15/12/2026',
        }),
      RangeError,
    );
    assert.throws(
      () =>
        webhookEndpointDisabled({
          organizationName: 'Acme',
          endpointUrl: 'https://x.test',
          reason: 'r',
          disabledAt: 'yesterday',
        }),
      RangeError,
    );
  });

  it('escapes the five HTML-significant characters', () => {
    assert.equal(
      escapeHtml(`<a href="x" title='y'>&</a>`),
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});
