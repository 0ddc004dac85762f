import {
  addMember,
  createApiKey,
  createOrganization,
  organizationExists,
  revokeApiKey,
  setMemberStatus,
} from '../admin/organizations.ts';
import type { Config } from '../config.ts';
import {
  ACCOUNTING_SCOPES,
  isRole,
  isScope,
  MEMBER_STATUSES,
  type MemberStatus,
} from '../contract/access.ts';
import { isId } from '../contract/formats.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createServices } from '../services.ts';
import { UsageError } from './usage-error.ts';
import { runWebhookEnable } from './webhook-commands.ts';

type Options = Record<string, string | boolean | undefined>;

const ADMIN_COMMANDS = [
  'orgs create',
  'members add',
  'members set-status',
  'keys create',
  'keys revoke',
  'webhooks enable',
];

function required(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function requiredId(options: Options, name: string): string {
  const value = required(options, name);
  if (!isId(value)) throw new UsageError(`--${name} must be a UUID`);
  return value.toLowerCase();
}

function print(options: Options, json: unknown, text: string): void {
  process.stdout.write(options.json ? `${JSON.stringify(json)}\n` : `${text}\n`);
}

/** orgs / members / keys: administration straight against the database. */
export async function runAdminCommand(
  config: Config,
  command: string,
  subcommand: string | undefined,
  options: Options,
): Promise<number> {
  const name = `${command} ${subcommand ?? ''}`.trim();
  // A typo should not open (or create) a database.
  if (!ADMIN_COMMANDS.includes(name)) throw new UsageError(`unknown command: ${name}`);
  const services = await createServices(config);
  const { kysely } = services.db;
  const { clock } = services;
  try {
    await migrateToLatest(services.db);
    switch (name) {
      case 'orgs create': {
        const org = await createOrganization(kysely, clock, { name: required(options, 'name') });
        print(options, { organizationId: org.id, name: org.name }, `organization ${org.id}`);
        return 0;
      }
      case 'members add': {
        const role = required(options, 'role');
        if (!isRole(role)) throw new UsageError('--role must be admin or finance');
        const organizationId = requiredId(options, 'org');
        if (!(await organizationExists(kysely, organizationId)))
          throw new UsageError(`organization ${organizationId} does not exist`);
        const member = await addMember(kysely, clock, {
          organizationId,
          email: required(options, 'email'),
          role,
          ...(typeof options.name === 'string' ? { name: options.name } : {}),
          ...(typeof options['oauth-subject'] === 'string' ? { oauthSubject: options['oauth-subject'] } : {}),
        });
        print(options, { memberId: member.id, organizationId, role }, `member ${member.id}`);
        return 0;
      }
      case 'members set-status': {
        const status = required(options, 'status');
        if (!(MEMBER_STATUSES as readonly string[]).includes(status)) {
          throw new UsageError(`--status must be one of ${MEMBER_STATUSES.join(', ')}`);
        }
        const changed = await setMemberStatus(kysely, clock, {
          organizationId: requiredId(options, 'org'),
          memberId: requiredId(options, 'member'),
          status: status as MemberStatus,
        });
        if (!changed) throw new UsageError('no such member in that organization');
        print(
          options,
          { memberId: options.member, status },
          `member ${String(options.member)} is now ${status}`,
        );
        return 0;
      }
      case 'keys create': {
        const scopes = (typeof options.scopes === 'string' ? options.scopes : ACCOUNTING_SCOPES.join(','))
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        const unknown = scopes.filter((scope) => !isScope(scope));
        if (unknown.length || scopes.length === 0)
          throw new UsageError(`unknown scopes: ${unknown.join(', ')}`);
        const key = await createApiKey(kysely, clock, {
          organizationId: requiredId(options, 'org'),
          memberId: requiredId(options, 'member'),
          scopes: scopes.filter(isScope),
          ...(typeof options.name === 'string' ? { name: options.name } : {}),
        }).catch((error: unknown) => {
          throw new UsageError(error instanceof Error ? error.message : String(error));
        });
        print(
          options,
          { keyId: key.id, apiKey: key.token, scopes: key.scopes },
          `key ${key.id}\nAPI key ${key.token}\n(shown only now)`,
        );
        return 0;
      }
      case 'keys revoke': {
        const revoked = await revokeApiKey(kysely, clock, {
          organizationId: requiredId(options, 'org'),
          keyId: requiredId(options, 'key'),
        });
        if (!revoked) throw new UsageError('no such active key in that organization');
        print(options, { keyId: options.key, revoked: true }, `key ${String(options.key)} revoked`);
        return 0;
      }
      case 'webhooks enable': {
        const result = await runWebhookEnable(services, options);
        print(options, result, `endpoint ${result.endpointId} is active again (revision ${result.revision})`);
        return 0;
      }
      default:
        throw new UsageError(`unknown command: ${command} ${subcommand ?? ''}`.trim());
    }
  } finally {
    await services.db.close();
  }
}
