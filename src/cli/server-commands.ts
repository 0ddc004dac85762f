import { operatorInitialize } from '../admin/operator.ts';
import { isTimeZone } from '../admin/organization-settings.ts';
import { isEmpty } from '../admin/organizations.ts';
import { type Config, localhostExceptionNotice } from '../config.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { ensureSearchIndex } from '../db/search-index.ts';
import { type InboundListener, startInboundListener } from '../inbound/listener.ts';
import { JOBS } from '../jobs/catalog.ts';
import { startJobs } from '../jobs/runner.ts';
import { OPERATIONS } from '../operations/catalog.ts';
import { warmValidators } from '../operations/validation.ts';
import { describeReaders, readerStatus } from '../receipts/extraction/readers.ts';
import { buildServer } from '../server.ts';
import { createServices, type Services } from '../services.ts';
import { memberSignInLinks } from '../sessions/member-sign-in.ts';
import { memberProfile } from '../sessions/principals.ts';
import { drainDeliveries } from '../webhooks/delivery/worker.ts';
import { operatorUser } from './operator-user.ts';
import { UsageError } from './usage-error.ts';

function onShutdown(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`accounting: ${signal} received, shutting down\n`);
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => handler('SIGINT'));
  process.once('SIGTERM', () => handler('SIGTERM'));
}

/** The operator's version of a listen error: the usual causes named, anything else as is. */
function listenFailure(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === 'EADDRINUSE') return 'the port is already in use by another process';
  if (code === 'EACCES') return 'permission denied (ports below 1024 need privileges)';
  if (code === 'EADDRNOTAVAIL') return 'HOST is not an address of this machine';
  return error instanceof Error ? error.message : String(error);
}

/** The inbound SMTP listener, when ACCOUNTING_INBOUND_SMTP_PORT is set (off by default). */
async function startInbound(services: Services): Promise<InboundListener | undefined> {
  const { inbound } = services.config;
  if (inbound.port === undefined) return undefined;
  const listener = await startInboundListener(services, services.inbound, { ...inbound, port: inbound.port });
  services.logger.info({ port: listener.port, domain: inbound.domain }, 'inbound SMTP listening');
  return listener;
}

async function prepared(config: Config): Promise<Services> {
  const services = await createServices(config);
  await migrateToLatest(services.db);
  const search = await ensureSearchIndex(services.db);
  if (!search.indexed) services.logger.warn({ searchIndex: false }, search.reason ?? 'search index missing');
  services.logger.info(
    {
      allowLocalhostHttp: config.webhooks.allowLocalhostHttp,
      localhostPorts: config.webhooks.localhostPorts,
    },
    localhostExceptionNotice(config),
  );
  return services;
}

export async function runServe(config: Config): Promise<number> {
  const services = await prepared(config);
  const app = await buildServer(services);
  // Listen before anything else happens: a process that cannot take its port must change nothing
  // (no first-run key, no job run) and exit, instead of working on unseen in the background.
  let address: string;
  try {
    address = await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    process.stderr.write(
      `accounting: cannot listen on ${config.host}:${config.port}: ${listenFailure(error)}\n`,
    );
    await app.close().catch(() => {});
    await services.db.close();
    return 1;
  }
  // First run on an empty database: make an organization and print a working key, once.
  if (await isEmpty(services.db.kysely)) {
    const created = await operatorInitialize(services, operatorUser(), {});
    process.stdout.write(
      [
        'First run: created an organization, an admin member and an API key.',
        `  organization: ${created.organizationId}`,
        `  member:       ${created.memberId}`,
        `  API key:      ${created.apiKey}`,
        'The key is shown only now; keep it somewhere safe.',
        ...(await firstRunDashboardLink(services, config, created)),
        '',
      ].join('\n'),
    );
  }
  const jobs = startJobs(services, JOBS);
  const inbound = await startInbound(services);
  // In the background: each operation's first call then finds its validator compiled.
  void warmValidators(OPERATIONS.map((operation) => operation.input));
  services.logger.info({ address, database: services.db.location }, 'accounting service listening');
  process.stdout.write(`Listening on ${address} (database: ${services.db.dialect})\n`);
  const readers = await readerStatus();
  process.stdout.write(`${describeReaders(readers)}\n`);
  if (readers.missing.length) services.logger.warn({ missing: readers.missing }, 'receipt readers missing');
  onShutdown(async () => {
    await inbound?.close();
    await app.close();
    await jobs.stop();
    // Attempts already sent get their outcome recorded (otherwise their lease lapses and they repeat).
    await drainDeliveries(services);
    await services.db.close();
  });
  return new Promise<number>(() => {});
}

export async function runWorker(config: Config): Promise<number> {
  const services = await prepared(config);
  const jobs = startJobs(services, JOBS);
  const inbound = await startInbound(services);
  // In the background: each operation's first call then finds its validator compiled.
  void warmValidators(OPERATIONS.map((operation) => operation.input));
  services.logger.info(
    { database: services.db.location, jobs: JOBS.map((job) => job.name) },
    'worker started',
  );
  onShutdown(async () => {
    await inbound?.close();
    await jobs.stop();
    // Attempts already sent get their outcome recorded (otherwise their lease lapses and they repeat).
    await drainDeliveries(services);
    await services.db.close();
  });
  return new Promise<number>(() => {});
}

export async function runMigrate(config: Config): Promise<number> {
  const services = await createServices(config);
  try {
    const result = await migrateToLatest(services.db);
    const search = await ensureSearchIndex(services.db);
    if (!search.indexed) process.stderr.write(`accounting: warning: ${search.reason}\n`);
    const applied = result.results?.filter((r) => r.status === 'Success').map((r) => r.migrationName) ?? [];
    process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'Schema is up to date.\n');
    return 0;
  } finally {
    await services.db.close();
  }
}

export async function runInit(
  config: Config,
  options: {
    json: boolean;
    organizationName: string | undefined;
    email: string | undefined;
    timeZone: string | undefined;
  },
): Promise<number> {
  // Checked before the database is opened: a typo should not create one.
  if (options.timeZone !== undefined && !isTimeZone(options.timeZone)) {
    throw new UsageError(`--time-zone ${options.timeZone} is not an IANA time zone (e.g. Europe/Paris)`);
  }
  const services = await prepared(config);
  try {
    if (!(await isEmpty(services.db.kysely))) {
      process.stderr.write(
        'accounting: init runs only on an empty database; use orgs/members/keys commands instead.\n',
      );
      return 1;
    }
    const created = await operatorInitialize(services, operatorUser(), {
      ...(options.organizationName ? { organizationName: options.organizationName } : {}),
      ...(options.timeZone ? { timeZone: options.timeZone } : {}),
      ...(options.email ? { email: options.email } : {}),
    });
    process.stdout.write(
      options.json
        ? `${JSON.stringify(created)}\n`
        : `organization ${created.organizationId}\nmember ${created.memberId}\nAPI key ${created.apiKey}\n(the key is shown only now)\n`,
    );
    return 0;
  } finally {
    await services.db.close();
  }
}

/** The first run's way into the dashboard: a one-time link for the new admin, printed, not mailed. */
async function firstRunDashboardLink(
  services: Services,
  config: Config,
  created: { organizationId: string; memberId: string },
): Promise<string[]> {
  const admin = await memberProfile(services.db.kysely, created.organizationId, created.memberId);
  if (!admin) return [];
  const [link] = await memberSignInLinks(services, config.sessions, config.publicUrl, {
    email: admin.email,
    organizationId: created.organizationId,
    mail: false,
  });
  if (!link) return [];
  return [
    `Dashboard: ${link.url}`,
    `  (signs ${admin.email} in once, until ${link.expiresAt}; later: accounting dashboard link --email ${admin.email})`,
  ];
}
