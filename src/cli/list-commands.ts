import { keyStatus, listApiKeys } from '../admin/api-keys.ts';
import { listMembers } from '../admin/members.ts';
import { listOrganizations } from '../admin/organizations.ts';
import { asIso, asIsoOrNull, asJson } from '../db/values.ts';
import type { Services } from '../services.ts';
import { mailLine, mailRows } from './mail-commands.ts';
import { existingOrganization, LIST_ALL, type Options, printRows } from './options.ts';

/** The read-only commands: they print and change nothing (no audit row). */
export const LIST_COMMANDS = ['orgs list', 'members list', 'keys list', 'mail list'];

export async function runListCommand(services: Services, name: string, options: Options): Promise<number> {
  const { kysely } = services.db;
  const { clock } = services;
  switch (name) {
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
    default:
      throw new Error(`not a list command: ${name}`);
  }
}
