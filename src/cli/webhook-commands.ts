import { operatorUnit } from '../admin/operator.ts';
import { AppError } from '../contract/errors.ts';
import { isId } from '../contract/formats.ts';
import type { Services } from '../services.ts';
import { enableEndpoint } from '../webhooks/endpoint-lifecycle.ts';
import { requireEndpoint } from '../webhooks/endpoints.ts';
import { operatorUser } from './operator-user.ts';
import { UsageError } from './usage-error.ts';

type Options = Record<string, string | boolean | undefined>;

function requiredId(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || !isId(value)) throw new UsageError(`--${name} must be a UUID`);
  return value.toLowerCase();
}

/**
 * `accounting webhooks enable --org ID --endpoint ID [--revision N]`: the operator's way to turn a
 * disabled endpoint back on until the dashboard exists (the API operation is dashboard-only).
 * Without --revision the current revision is used. Audited like every CLI change: actor
 * `operator:<OS user>`, transport `cli`, under the API operation's name `webhooks.endpoints.enable`.
 */
export async function runWebhookEnable(
  services: Services,
  options: Options,
): Promise<{ endpointId: string; status: string; revision: number }> {
  const organizationId = requiredId(options, 'org');
  const id = requiredId(options, 'endpoint');
  const revisionText = options.revision;
  try {
    const updated = await operatorUnit(
      services,
      operatorUser(),
      organizationId,
      'webhooks.endpoints.enable',
      async (unit) => {
        const expectedRevision =
          typeof revisionText === 'string'
            ? Number(revisionText)
            : (await requireEndpoint(unit.db, organizationId, id)).revision;
        if (!Number.isSafeInteger(expectedRevision) || expectedRevision < 1) {
          throw new UsageError('--revision must be a positive integer');
        }
        return enableEndpoint(unit, { id, expectedRevision });
      },
    );
    return { endpointId: updated.id, status: updated.status, revision: updated.revision };
  } catch (error) {
    if (error instanceof AppError) throw new UsageError(error.message);
    throw error;
  }
}
