import type { AnyOperation } from '../define.ts';
import { getDelivery } from './deliveries-get.ts';
import { listDeliveries } from './deliveries-list.ts';
import { recoverDeliveries } from './deliveries-recover.ts';
import { retryDelivery } from './deliveries-retry.ts';
import { archiveEndpoint } from './endpoints-archive.ts';
import { createEndpoint } from './endpoints-create.ts';
import { enableWebhookEndpoint } from './endpoints-enable.ts';
import { getEndpoint } from './endpoints-get.ts';
import { listEndpoints } from './endpoints-list.ts';
import { rotateEndpointSecret } from './endpoints-rotate-secret.ts';
import { testEndpoint } from './endpoints-test.ts';
import { updateEndpoint } from './endpoints-update.ts';
import { getEvent } from './events-get.ts';
import { listEvents } from './events-list.ts';

export const webhookOperations = [
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
] as const satisfies readonly AnyOperation[];
