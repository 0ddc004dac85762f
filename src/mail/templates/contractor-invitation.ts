import { checkedLink, formatTimestamp, type RenderedMail, render } from './render.ts';

export type ContractorInvitationInput = {
  organizationName: string;
  contractorName: string;
  /** The portal invitation link; it is a bearer secret, so it appears in the body only. */
  link: string;
  /** ISO 8601 timestamp; an invitation lasts 7 days. */
  expiresAt: string;
};

/** Sent by contractors.invite to the contractor's email. */
export function contractorInvitation(input: ContractorInvitationInput): RenderedMail {
  return render({
    kind: 'contractor.invitation',
    subject: `${input.organizationName} invited you to its contractor portal`,
    blocks: [
      { paragraph: `Hello ${input.contractorName},` },
      {
        paragraph: `${input.organizationName} invited you to its contractor portal, where you see your own hours, agreements and payments.`,
      },
      { link: { label: 'Accept the invitation', href: checkedLink(input.link) } },
      {
        paragraph: `The invitation expires on ${formatTimestamp(input.expiresAt)}. If you did not expect it, you can ignore this email.`,
      },
    ],
  });
}
