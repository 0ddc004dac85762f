/** The portal address of an invitation; the token is a bearer secret, so the link is one too. */
export function invitationUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/portal/invitations/${token}`;
}
