import { pino } from 'pino';
import { addMember, createApiKey, createOrganization } from '../../src/admin/organizations.ts';
import type { Config } from '../../src/config.ts';
import { ALL_SCOPES, type Scope } from '../../src/contract/access.ts';
import { type DialectName, openDatabase } from '../../src/db/database.ts';
import { createServices, type Services } from '../../src/services.ts';
import { createTestDatabase, type TestDatabase } from '../../test/support/databases.ts';

export interface BenchService {
  database: TestDatabase;
  services: Services;
  /** Closes the service's own PostgreSQL pool and drops the scratch database, unless `keep`. */
  close(options?: { keep?: boolean }): Promise<void>;
}

/**
 * The benchmarks' service: a scratch database made as the tests make one, and the real services on
 * it, logging nothing. On PostgreSQL with the production pool size (10) rather than the test
 * harness's 5.
 */
export async function startBenchService(dialect: DialectName, config: Config): Promise<BenchService> {
  const database = await createTestDatabase(dialect);
  const db =
    database.url === undefined
      ? database.db
      : openDatabase({ databaseUrl: database.url, dataDir: database.env.ACCOUNTING_DATA_DIR, poolSize: 10 });
  const services = await createServices(config, { db, logger: pino({ level: 'silent' }) });
  return {
    database,
    services,
    async close(options = {}) {
      if (db !== database.db) await db.close();
      if (!options.keep) await database.drop();
    },
  };
}

/** An organization with one admin member and an API key of the given scopes (all by default). */
export async function benchOrganization(
  services: Services,
  name: string,
  scopes: readonly Scope[] = ALL_SCOPES,
): Promise<{ organizationId: string; token: string }> {
  const { kysely } = services.db;
  const org = await createOrganization(kysely, services.clock, { name });
  const member = await addMember(kysely, services.clock, {
    organizationId: org.id,
    email: `${name}-admin@example.com`,
    role: 'admin',
  });
  const { token } = await createApiKey(kysely, services.clock, {
    organizationId: org.id,
    memberId: member.id,
    scopes,
  });
  return { organizationId: org.id, token };
}
