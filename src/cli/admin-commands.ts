import {
  operatorAddMember,
  operatorChangeMember,
  operatorCreateKey,
  operatorCreateOrganization,
  operatorRevokeKey,
  operatorSetOrganizationSuspended,
} from '../admin/operator.ts';
import { organizationExists } from '../admin/organizations.ts';
import type { Config } from '../config.ts';
import {
  ACCOUNTING_SCOPES,
  isRole,
  isScope,
  MEMBER_STATUSES,
  type MemberStatus,
} from '../contract/access.ts';
import { AppError } from '../contract/errors.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createServices } from '../services.ts';
import { memberSignInLinks } from '../sessions/member-sign-in.ts';
import { LIST_COMMANDS, runListCommand } from './list-commands.ts';
import { operatorUser } from './operator-user.ts';
import {
  existingOrganization,
  type Options,
  optionalExpiry,
  optionalRevision,
  print,
  printRows,
  required,
  requiredId,
} from './options.ts';
import { RATES_COMMANDS, runRatesCommand } from './rates-commands.ts';
import { UsageError } from './usage-error.ts';
import { runWebhookEnable } from './webhook-commands.ts';

const ADMIN_COMMANDS = [
  'orgs create',
  'orgs suspend',
  'orgs reinstate',
  'members add',
  'members set-status',
  'members set-role',
  'keys create',
  'keys revoke',
  'webhooks enable',
  'dashboard link',
  ...LIST_COMMANDS,
  ...RATES_COMMANDS,
];

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
  const user = operatorUser();
  try {
    await migrateToLatest(services.db);
    if (LIST_COMMANDS.includes(name)) return await runListCommand(services, name, options);
    if (RATES_COMMANDS.includes(name)) return await runRatesCommand(services, config, name, options);
    return await runNamed(name);
  } catch (error) {
    // A refused rule (last_admin, invalid_state, revision_conflict) is the operator's to fix.
    if (error instanceof AppError) throw new UsageError(`${error.code}: ${error.message}`);
    throw error;
  } finally {
    await services.db.close();
  }

  async function runNamed(name: string): Promise<number> {
    switch (name) {
      case 'orgs create': {
        const org = await operatorCreateOrganization(services, user, { name: required(options, 'name') });
        print(options, { organizationId: org.id, name: org.name }, `organization ${org.id}`);
        return 0;
      }
      case 'orgs suspend':
      case 'orgs reinstate': {
        const organizationId = requiredId(options, 'org');
        if (!(await organizationExists(kysely, organizationId)))
          throw new UsageError(`organization ${organizationId} does not exist`);
        const suspended = subcommand === 'suspend';
        const result = await operatorSetOrganizationSuspended(services, user, organizationId, suspended);
        print(
          options,
          result,
          suspended
            ? `organization ${organizationId} is suspended since ${result.suspendedAt}`
            : `organization ${organizationId} is active`,
        );
        return 0;
      }
      case 'members add': {
        const role = required(options, 'role');
        if (!isRole(role)) throw new UsageError('--role must be admin or finance');
        const organizationId = requiredId(options, 'org');
        if (!(await organizationExists(kysely, organizationId)))
          throw new UsageError(`organization ${organizationId} does not exist`);
        const member = await operatorAddMember(services, user, {
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
        const member = await operatorChangeMember(services, user, {
          organizationId: requiredId(options, 'org'),
          memberId: requiredId(options, 'member'),
          change: { status: status as MemberStatus },
          ...revisionOption(),
        });
        print(
          options,
          { memberId: member.id, status: member.status, revision: member.revision },
          `member ${member.id} is now ${member.status}`,
        );
        return 0;
      }
      case 'members set-role': {
        const role = required(options, 'role');
        if (!isRole(role)) throw new UsageError('--role must be admin or finance');
        const member = await operatorChangeMember(services, user, {
          organizationId: requiredId(options, 'org'),
          memberId: requiredId(options, 'member'),
          change: { role },
          ...revisionOption(),
        });
        print(
          options,
          { memberId: member.id, role: member.role, revision: member.revision },
          `member ${member.id} is now ${member.role}`,
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
        const { row, token } = await operatorCreateKey(services, user, {
          organizationId: await existingOrganization(kysely, options),
          memberId: requiredId(options, 'member'),
          scopes: scopes.filter(isScope),
          name: typeof options.name === 'string' ? options.name : undefined,
          expiresAt: optionalExpiry(options),
        });
        print(
          options,
          { keyId: row.id, apiKey: token, scopes: row.scopes, expiresAt: row.expires_at },
          `key ${row.id}\nAPI key ${token}\n(shown only now)`,
        );
        return 0;
      }
      case 'keys revoke': {
        const revoked = await operatorRevokeKey(services, user, {
          organizationId: requiredId(options, 'org'),
          keyId: requiredId(options, 'key'),
          ...revisionOption(),
        });
        print(options, { keyId: revoked.id, revoked: true }, `key ${revoked.id} revoked`);
        return 0;
      }
      case 'webhooks enable': {
        const result = await runWebhookEnable(services, options);
        print(options, result, `endpoint ${result.endpointId} is active again (revision ${result.revision})`);
        return 0;
      }
      case 'dashboard link': {
        // The laptop's way in without SMTP: the link is printed here instead of e-mailed.
        const links = await memberSignInLinks(services, config.sessions, config.publicUrl, {
          email: required(options, 'email'),
          ...(options.org === undefined ? {} : { organizationId: requiredId(options, 'org') }),
          mail: false,
        });
        if (links.length === 0) throw new UsageError('no active member has that e-mail address');
        printRows(
          options,
          links,
          (link) => `${link.organizationName}: ${link.url}  (works once, until ${link.expiresAt})`,
        );
        return 0;
      }
      default:
        throw new UsageError(`unknown command: ${command} ${subcommand ?? ''}`.trim());
    }
  }

  function revisionOption(): { expectedRevision?: number } {
    const revision = optionalRevision(options);
    return revision === undefined ? {} : { expectedRevision: revision };
  }
}
