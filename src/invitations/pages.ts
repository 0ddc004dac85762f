import { onWallClock } from '../lib/wall-clock.ts';
import { escapeHtml } from '../mail/templates/render.ts';
import type { AcceptResult } from './portal.ts';

/** A rendered portal page: HTTP status and a self-contained HTML document (no external assets). */
export interface PortalPage {
  status: number;
  html: string;
}

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#1a1a1a}' +
  'button{font:inherit;padding:.6rem 1.4rem;border:0;border-radius:.3rem;background:#1f5fbf;color:#fff;cursor:pointer}';

function page(status: number, title: string, body: string): PortalPage {
  return {
    status,
    html: [
      '<!doctype html>',
      '<html lang="en"><head><meta charset="utf-8">',
      '<meta name="viewport" content="width=device-width,initial-scale=1">',
      '<meta name="robots" content="noindex">',
      `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>`,
      `<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
      '',
    ].join('\n'),
  };
}

const p = (text: string) => `<p>${escapeHtml(text)}</p>`;

/** Answered, with Retry-After, when one address opens portal pages faster than the portal limit. */
export function tooManyRequestsPage(): PortalPage {
  return page(429, 'Too many requests', p('Please wait a minute, then open the link from your email again.'));
}

/**
 * Accepting signs in, so its POST follows the sign-in rule (decision 310): only from our own page.
 * Nothing was accepted; the link still works from the e-mail.
 */
export function crossSitePage(requestId: string): PortalPage {
  return page(
    403,
    'Open the link from your e-mail again',
    p('This form was sent from another site or without the signs of our own page, so nothing was accepted.') +
      p('Open the invitation link from your e-mail and press Accept there.') +
      `<p>Code csrf_failed · request ${escapeHtml(requestId)}</p>`,
  );
}

/**
 * The page for every state of a link. Unknown or malformed tokens are 404; links that existed but
 * can no longer be used (accepted, revoked, replaced, expired) are 410 Gone; a contractor whose
 * portal access is off is 403; the open invitation shows a form, because accepting changes state
 * and must not happen on a GET (mail scanners and link previews fetch links).
 */
export function portalPage(result: AcceptResult, token: string): PortalPage {
  switch (result.kind) {
    case 'open':
      return page(
        200,
        `Join ${result.organizationName}'s contractor portal`,
        p(`Hello ${result.contractorName},`) +
          p(
            `${result.organizationName} invited you to its contractor portal, where you see your own hours, agreements and payments.`,
          ) +
          p(`This invitation expires on ${onWallClock(new Date(result.expiresAt), result.timeZone)}.`) +
          // Relative action: /portal/invitations/<token> -> /portal/invitations/<token>/accept,
          // also behind a proxy that mounts the service under a path.
          `<form method="post" action="${escapeHtml(token)}/accept"><button type="submit">Accept</button></form>`,
      );
    case 'accepted':
      // Shown only when accepting could not also sign in (the portal is closed to them right now);
      // otherwise the accept answers with the session cookie and the portal itself (decision 448).
      return page(
        200,
        'Invitation accepted',
        p(
          `Welcome, ${result.contractorName}. You have joined ${result.organizationName}'s contractor portal.`,
        ) +
          // Relative to /portal/invitations/<token>/accept, like the accept form's action.
          `<p><a href="../../sign-in">Sign in to the portal</a></p>`,
      );
    case 'unknown':
      return page(
        404,
        'Invitation not found',
        p(
          'This invitation link is not valid. Check that the whole link was copied, or ask for a new invitation.',
        ),
      );
    case 'contractor_inactive':
      return page(
        403,
        'Portal access is turned off',
        p('Your portal access is currently turned off. Ask the organization that invited you to turn it on.'),
      );
    case 'contractor_joined':
      return page(409, 'Already joined', p('You have already joined this contractor portal.'));
    case 'closed':
      return page(410, CLOSED_TITLES[result.status], p(CLOSED_TEXTS[result.status]));
  }
}

const CLOSED_TITLES = {
  accepted: 'Invitation already accepted',
  revoked: 'Invitation withdrawn',
  replaced: 'Invitation replaced',
  expired: 'Invitation expired',
} as const;

const CLOSED_TEXTS = {
  accepted: 'This invitation was already accepted; it cannot be used again.',
  revoked: 'This invitation was withdrawn by the organization that sent it. Ask them for a new one.',
  replaced: 'A newer invitation was sent to you. Use the link in the most recent email.',
  expired: 'This invitation has expired (invitations last 7 days). Ask for a new one.',
} as const;
