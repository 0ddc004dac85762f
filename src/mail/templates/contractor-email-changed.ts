import { formatTimestamp, type RenderedMail, render } from './render.ts';

export type ContractorEmailChangedInput = {
  organizationName: string;
  contractorName: string;
  /** The address the portal now invites (shown so the person can tell whether it is theirs). */
  newEmail: string;
  /** ISO 8601 timestamp of the change. */
  changedAt: string;
};

/**
 * Sent to a joined contractor's previous address when the organization changes it (decision
 * 412): their portal sessions ended and the portal waits for an invitation accepted at the new one.
 */
export function contractorEmailChanged(input: ContractorEmailChangedInput): RenderedMail {
  return render({
    kind: 'contractor.email_changed',
    subject: `${input.organizationName} changed the email address of your contractor portal`,
    blocks: [
      { paragraph: `Hello ${input.contractorName},` },
      {
        paragraph: `On ${formatTimestamp(input.changedAt)}, ${input.organizationName} changed the email address of your contractor portal account to ${input.newEmail}. You were signed out of the portal, and it opens again only when the invitation sent to the new address is accepted.`,
      },
      {
        paragraph: `If you did not ask for this change, contact ${input.organizationName} at once: until then nobody can sign in to the portal as you without that invitation.`,
      },
    ],
  });
}
