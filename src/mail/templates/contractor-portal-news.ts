import { checkedDate, checkedLink, type RenderedMail, render } from './render.ts';

export type AgreementWaitingInput = {
  organizationName: string;
  contractorName: string;
  /** The agreement's title as the organization named it. */
  title: string;
  /** The agreement's portal page: a plain address, never a token (the portal asks who you are). */
  portalLink: string;
};

/** Sent when an agreement is sent to a contractor who may use the portal (decision 451). */
export function agreementWaiting(input: AgreementWaitingInput): RenderedMail {
  return render({
    kind: 'contractor.agreement_waiting',
    subject: `${input.organizationName} sent you an agreement to sign: ${input.title}`,
    blocks: [
      { paragraph: `Hello ${input.contractorName},` },
      {
        paragraph: `${input.organizationName} sent you "${input.title}" to read and sign in its contractor portal.`,
      },
      { link: { label: 'Read and sign the agreement', href: checkedLink(input.portalLink) } },
      {
        paragraph:
          'The link opens the portal; if you are not signed in there, it asks for your email address and sends you a sign-in link that brings you back to the agreement.',
      },
    ],
  });
}

export type PayoutPaidInput = {
  organizationName: string;
  contractorName: string;
  /** Already formatted with its currency (money formatting is not the mail layer's job). */
  amountFormatted: string;
  /** YYYY-MM-DD. */
  periodStart: string;
  periodEnd: string;
  paidOn: string;
  reference: string;
  /** The portal's payments page: a plain address, never a token. */
  portalLink: string;
};

/** Sent when a payout to a contractor who may use the portal is marked paid (decision 451). */
export function payoutPaid(input: PayoutPaidInput): RenderedMail {
  return render({
    kind: 'contractor.payout_paid',
    subject: `${input.organizationName} paid you ${input.amountFormatted}`,
    blocks: [
      { paragraph: `Hello ${input.contractorName},` },
      {
        paragraph: `${input.organizationName} recorded a payment of ${input.amountFormatted} to you.`,
      },
      {
        facts: [
          ['Amount', input.amountFormatted],
          ['Period', `${checkedDate(input.periodStart)} to ${checkedDate(input.periodEnd)}`],
          ['Paid on', checkedDate(input.paidOn)],
          ['Reference', input.reference],
        ],
      },
      { link: { label: 'See your payments', href: checkedLink(input.portalLink) } },
    ],
  });
}
