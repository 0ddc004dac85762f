import { keyStatus, listApiKeys } from '../admin/api-keys.ts';
import { listMembers } from '../admin/members.ts';
import {
  operatorAddMember,
  operatorChangeMember,
  operatorCreateKey,
  operatorCreateOrganization,
  operatorRevokeKey,
} from '../admin/operator.ts';
import { listOrganizations, organizationExists } from '../admin/organizations.ts';
import type { Config } from '../config.ts';
import {
  ACCOUNTING_SCOPES,
  isRole,
  isScope,
  MEMBER_STATUSES,
  type MemberStatus,
} from '../contract/access.ts';
import { AppError } from '../contract/errors.ts';
import { isId } from '../contract/formats.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { asIso, asIsoOrNull, asJson } from '../db/values.ts';
import { createServices } from '../services.ts';
import { mailLine, mailRows } from './mail-commands.ts';
import { operatorUser } from './operator-user.ts';
import { UsageError } from './usage-error.ts';
import { runWebhookEnable } from './webhook-commands.ts';

type Options = Record<string, string | boolean | undefined>;

const ADMIN_COMMANDS = [
  'orgs create',
  'orgs list',
  'members add',
  'members list',
  'members set-status',
  'members set-role',
  'keys create',
  'keys list',
  'keys revoke',
  'mail list',
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

/** `--revision N`: the revision the operator last saw; omitted means "as it is now". */
function optionalRevision(options: Options): number | undefined {
  if (options.revision === undefined) return undefined;
  const revision = Number(options.revision);
  if (!Number.isSafeInteger(revision) || revision < 1)
    throw new UsageError('--revision must be a positive integer');
  return revision;
}

/** `--expires-at`: an ISO 8601 instant (the domain refuses one in the past). */
function optionalExpiry(options: Options): string | undefined {
  const value = options['expires-at'];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value)))
    throw new UsageError('--expires-at must be an ISO 8601 instant, e.g. 2027-01-01T00:00:00Z');
  return new Date(value).toISOString();
}

function print(options: Options, json: unknown, text: string): void {
  process.stdout.write(options.json ? `${JSON.stringify(json)}\n` : `${text}\n`);
}

/** Lists print everything: an operator's terminal, not an API page. */
const LIST_ALL = 1_000_000;

/** `--json`: one JSON array on one line; otherwise one line per row. */
function printRows<T>(options: Options, rows: T[], line: (row: T) => string): void {
  if (options.json) process.stdout.write(`${JSON.stringify(rows)}\n`);
  else process.stdout.write(rows.length ? `${rows.map(line).join('\n')}\n` : '(none)\n');
}

async function existingOrganization(
  kysely: Parameters<typeof organizationExists>[0],
  options: Options,
): Promise<string> {
  const organizationId = requiredId(options, 'org');
  if (!(await organizationExists(kysely, organizationId)))
    throw new UsageError(`organization ${organizationId} does not exist`);
  return organizationId;
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
  const user = operatorUser();
  try {
    await migrateToLatest(services.db);
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
      case 'orgs list': {
        const organizations = (await listOrganizations(kysely)).map((org) => ({
          organizationId: org.id,
          name: org.name,
          timeZone: org.time_zone,
          createdAt: asIso(org.created_at),
        }));
        printRows(options, organizations, (org) => `${org.organizationId}  ${org.timeZone}  ${org.name}`);
        return 0;
      }
      case 'members list': {
        const rows = await listMembers(kysely, await existingOrganization(kysely, options), {
          limit: LIST_ALL,
          offset: 0,
        });
        const members = rows.map((member) => ({
          memberId: member.id,
          email: member.email,
          name: member.name,
          role: member.role,
          status: member.status,
          createdAt: asIso(member.created_at),
        }));
        printRows(
          options,
          members,
          (m) => `${m.memberId}  ${m.role.padEnd(7)}  ${m.status.padEnd(9)}  ${m.email}`,
        );
        return 0;
      }
      case 'keys list': {
        const rows = await listApiKeys(kysely, await existingOrganization(kysely, options), {
          limit: LIST_ALL,
          offset: 0,
        });
        const now = clock.now();
        // Never the key itself: only its hash is stored, and the lookup id is not shown either.
        const keys = rows.map((key) => ({
          keyId: key.id,
          name: key.name,
          createdBy: key.member_id,
          scopes: asJson<string[]>(key.scopes),
          status: keyStatus(key, now),
          createdAt: asIso(key.created_at),
          lastUsedAt: asIsoOrNull(key.last_used_at),
          expiresAt: asIsoOrNull(key.expires_at),
        }));
        printRows(
          options,
          keys,
          (k) =>
            `${k.keyId}  ${k.status.padEnd(7)}  ${k.scopes.join(',')}  by ${k.createdBy}  last used ${k.lastUsedAt ?? 'never'}  expires ${k.expiresAt ?? 'never'}`,
        );
        return 0;
      }
      case 'mail list': {
        const rows = await mailRows(services, await existingOrganization(kysely, options), options);
        printRows(options, rows, mailLine);
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
      default:
        throw new UsageError(`unknown command: ${command} ${subcommand ?? ''}`.trim());
    }
  }

  function revisionOption(): { expectedRevision?: number } {
    const revision = optionalRevision(options);
    return revision === undefined ? {} : { expectedRevision: revision };
  }
}
