import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { UsageError } from './usage-error.ts';

const USAGE = `Usage: accounting <command> [options]

Commands:
  serve                      API and background workers in one process (PORT, HOST, DATABASE_URL, ACCOUNTING_DATA_DIR)
  worker                     background workers only (scale out beside serve)
  migrate                    bring the database schema up to date
  init [--org-name N] [--time-zone TZ] [--email E] [--json]
                             on an empty database: organization (name default "My organization",
                             IANA time zone default UTC; both printed on invoices), admin member, API key
  orgs create --name N
  orgs list                  every organization: id, name, time zone
  orgs suspend --org ID      stop the organization's keys, sessions and portal at once (nothing deleted)
  orgs reinstate --org ID    lift a suspension
  members add --org ID --email E --role admin|finance [--name N] [--oauth-subject SUB]
  members list --org ID      members with role and status
  members set-status --org ID --member ID --status active|suspended|removed [--revision N]
                             suspending or removing ends the member's keys; active reinstates
  members set-role --org ID --member ID --role admin|finance [--revision N]
                             the last active admin is never suspended, removed or demoted
  keys create --org ID --member ID [--scopes a,b] [--name N] [--expires-at ISO]
                             scopes default to accounting:read,accounting:write,accounting:admin;
                             mail:read and mail:write only when named
  keys list --org ID         keys with scopes, creator, created, last used, expiry, status (never the key)
  keys revoke --org ID --key ID [--revision N]
  mail list --org ID [--archived]
                             company mail: letters newest first (not archived unless --archived)
  webhooks enable --org ID --endpoint ID [--revision N]   turn an auto-disabled endpoint back on
  rates load --file F        store the exchange rates of an ECB-format XML file (daily, 90-day or
                             full history) for receipt matching; a refused file changes nothing
  rates status               stored rates (count, first and last date) and the rates job's state
  dashboard link --email E [--org ID]   print a one-time dashboard sign-in link (no SMTP needed)
  mcp                        MCP server over stdio (ACCOUNTING_API_KEY)

Every admin command accepts --json for scripts. Changes go through the same rules as the API and
are audited (actor operator:<OS user>, transport cli); --revision guards against a concurrent change.`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
      name: { type: 'string' },
      org: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      member: { type: 'string' },
      status: { type: 'string' },
      scopes: { type: 'string' },
      key: { type: 'string' },
      endpoint: { type: 'string' },
      revision: { type: 'string' },
      'oauth-subject': { type: 'string' },
      'expires-at': { type: 'string' },
      archived: { type: 'boolean', default: false },
      'org-name': { type: 'string' },
      'time-zone': { type: 'string' },
      file: { type: 'string' },
    },
  });
  const [command, subcommand] = positionals;
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return command || values.help ? 0 : 2;
  }
  const config = loadConfig();
  // Loaded on demand: the server graph takes a second or two to load, which usage errors,
  // --help and admin commands should not pay.
  const server = () => import('./server-commands.ts');
  switch (command) {
    case 'serve':
      return (await server()).runServe(config);
    case 'worker':
      return (await server()).runWorker(config);
    case 'migrate':
      return (await server()).runMigrate(config);
    case 'init':
      return (await server()).runInit(config, {
        json: values.json,
        organizationName: values['org-name'],
        email: values.email,
        timeZone: values['time-zone'],
      });
    case 'mcp': {
      const { runMcpStdio } = await import('./mcp-command.ts');
      return runMcpStdio(config);
    }
    default: {
      const { runAdminCommand } = await import('./admin-commands.ts');
      return runAdminCommand(config, command, subcommand, values);
    }
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const known =
      error instanceof UsageError ||
      error instanceof ConfigError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`accounting: ${error instanceof Error ? error.message : String(error)}\n`);
    if (!known && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    if (known) process.stderr.write(`Run 'accounting --help' for usage.\n`);
    process.exitCode = known ? 2 : 1;
  },
);
