import { checkedLink, type RenderedMail, render } from './render.ts';

export type MemberAddedInput = {
  organizationName: string;
  /** The new member's display name, when the admin gave one. */
  memberName: string | null;
  /** The role as a member reads it ("Finance", not `finance`). */
  roleLabel: string;
  /** The dashboard's sign-in page: a plain address, never a token (it mails a link on request). */
  signInLink: string;
};

/** Sent to a member added to an organization (`admin.members.add`), so they know where to go. */
export function memberAdded(input: MemberAddedInput): RenderedMail {
  return render({
    kind: 'member.added',
    subject: `You were added to ${input.organizationName}`,
    blocks: [
      { paragraph: input.memberName ? `Hello ${input.memberName},` : 'Hello,' },
      {
        paragraph: `You are now a member of ${input.organizationName} in its accounting dashboard, with the ${input.roleLabel} role.`,
      },
      { link: { label: 'Sign in to the dashboard', href: checkedLink(input.signInLink) } },
      {
        paragraph:
          'Enter this email address on that page and we send you a sign-in link; there is no password to remember. If you did not expect this, you can ignore this message.',
      },
    ],
  });
}
