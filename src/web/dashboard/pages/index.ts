import type { PageHandler } from '../routes.ts';
import { homePage } from './home.ts';
import { webhookDeliveryPage, webhookEndpointPage, webhooksPage } from './webhooks.ts';

/** Every signed-in page by path; each reads through catalog operations as the member. */
export const PAGES: Record<string, PageHandler> = {
  '/dashboard': homePage,
  '/dashboard/webhooks': webhooksPage,
  '/dashboard/webhooks/:id': webhookEndpointPage,
  '/dashboard/webhooks/deliveries/:id': webhookDeliveryPage,
};
