import type { FastifyInstance } from 'fastify';
import { type Logger, pino } from 'pino';
import { addMember, createApiKey, createOrganization } from '../../src/admin/organizations.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import type { Role, Scope } from '../../src/contract/access.ts';
import { ACCOUNTING_SCOPES } from '../../src/contract/access.ts';
import type { DialectName } from '../../src/db/database.ts';
import { JOBS } from '../../src/jobs/catalog.ts';
import type { Job } from '../../src/jobs/runner.ts';
import { TestClock } from '../../src/lib/clock.ts';
import type { MailTransport } from '../../src/mail/outbox-queue.ts';
import { buildServer } from '../../src/server.ts';
import { createServices, type Services } from '../../src/services.ts';
import { createTestDatabase, type TestDatabase } from './databases.ts';

export interface TestApp {
  dialect: DialectName;
  baseUrl: string;
  services: Services;
  clock: TestClock;
  database: TestDatabase;
  server: FastifyInstance;
  /** Runs every background job once (mail, webhooks, schedules) at the current test clock. */
  runJobs(jobs?: readonly Job[]): Promise<void>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  config?: Partial<Config>;
  env?: NodeJS.ProcessEnv;
  mailTransport?: MailTransport;
  clock?: TestClock;
  /** The service's logger (default: pino at TEST_LOG_LEVEL, silent). */
  logger?: Logger;
}

/** A real server on a random loopback port over a fresh database of the given dialect. */
export async function startTestApp(dialect: DialectName, options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase(dialect);
  const config: Config = {
    ...loadConfig({
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      ACCOUNTING_RATE_LIMIT: '100000/1m',
      // Test receivers listen on http://localhost:<random port> (the exception, decision 411).
      ACCOUNTING_WEBHOOK_LOCALHOST_PORTS: 'any',
      ...options.env,
    }),
    ...options.config,
  };
  const clock = options.clock ?? new TestClock();
  const services = await createServices(config, {
    db: database.db,
    clock,
    logger: options.logger ?? pino({ level: config.logLevel }),
    ...(options.mailTransport ? { mailTransport: options.mailTransport } : {}),
  });
  const server = await buildServer(services);
  const address = await server.listen({ port: 0, host: '127.0.0.1' });
  return {
    dialect,
    baseUrl: address,
    services,
    clock,
    database,
    server,
    async runJobs(jobs = JOBS) {
      for (const job of jobs) while ((await job.run(services)) > 0);
    },
    async close() {
      await server.close();
      await database.drop();
    },
  };
}

export interface Caller {
  organizationId: string;
  memberId: string;
  token: string;
  role: Role;
}

/** A new organization with one member of the given role and a key with the given scopes. */
export async function createCaller(
  app: TestApp,
  options: { role?: Role; scopes?: readonly Scope[]; organizationId?: string } = {},
): Promise<Caller> {
  const { kysely } = app.services.db;
  const organizationId =
    options.organizationId ?? (await createOrganization(kysely, app.clock, { name: 'Test org' })).id;
  const role = options.role ?? 'admin';
  const member = await addMember(kysely, app.clock, {
    organizationId,
    email: `${role}-${Math.random().toString(36).slice(2)}@example.com`,
    role,
  });
  const key = await createApiKey(kysely, app.clock, {
    organizationId,
    memberId: member.id,
    scopes: options.scopes ?? ACCOUNTING_SCOPES,
  });
  return { organizationId, memberId: member.id, token: key.token, role };
}
