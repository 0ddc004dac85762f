import type { AnyOperation } from '../define.ts';
import { archiveEndpoint } from './archive.ts';
import { createEndpoint } from './create.ts';
import { getDelivery } from './deliveries-get.ts';
import { listDeliveries } from './deliveries-list.ts';
import { recoverDeliveries } from './deliveries-recover.ts';
import { retryDelivery } from './deliveries-retry.ts';
import { enableWebhookEndpoint } from './enable.ts';
import { getEvent } from './events-get.ts';
import { listEvents } from './events-list.ts';
import { getEndpoint } from './get.ts';
import { listEndpoints } from './list.ts';
import { rotateEndpointSecret } from './rotate-secret.ts';
import { testEndpoint } from './test.ts';
import { updateEndpoint } from './update.ts';

export const webhookOperations: readonly AnyOperation[] = [
  listEndpoints,
  getEndpoint,
  createEndpoint,
  updateEndpoint,
  archiveEndpoint,
  rotateEndpointSecret,
  testEndpoint,
  enableWebhookEndpoint,
  listEvents,
  getEvent,
  listDeliveries,
  getDelivery,
  retryDelivery,
  recoverDeliveries,
];
