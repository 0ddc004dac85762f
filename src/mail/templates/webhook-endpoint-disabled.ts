import { formatTimestamp, type RenderedMail, render } from './render.ts';

export type WebhookEndpointDisabledInput = {
  organizationName: string;
  /** Shown as text, never as a link: the address is the customer's and may be anything. */
  endpointUrl: string;
  /** The endpoint's `disabled_reason`. */
  reason: string;
  /** ISO 8601 timestamp, the endpoint's `disabled_at`. */
  disabledAt: string;
};

/** Sent to the organization's administrators when an endpoint is turned off automatically. */
export function webhookEndpointDisabled(input: WebhookEndpointDisabledInput): RenderedMail {
  return render({
    kind: 'webhook.endpoint_disabled',
    subject: `${input.organizationName}: a webhook endpoint was turned off`,
    blocks: [
      {
        paragraph: `A webhook endpoint of ${input.organizationName} was turned off because deliveries to it kept failing.`,
      },
      {
        facts: [
          ['Endpoint', input.endpointUrl],
          ['Reason', input.reason],
          ['Turned off at', formatTimestamp(input.disabledAt)],
        ],
      },
      {
        paragraph:
          'No events are sent to it until an administrator turns it on again in the dashboard. Failed deliveries can then be retried from the delivery log.',
      },
    ],
  });
}
