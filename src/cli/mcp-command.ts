import type { Config } from '../config.ts';
import { AppError } from '../contract/errors.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { serveMcpStdio } from '../mcp/stdio.ts';
import { createServices } from '../services.ts';

/**
 * `accounting mcp`: the MCP server over stdio for a local agent. The credential comes from
 * ACCOUNTING_API_KEY (ACCOUNTING_ORGANIZATION optionally selects the organization); the database
 * settings are the same as `serve`. Logs go to stderr only.
 */
export async function runMcpStdio(config: Config, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const apiKey = env.ACCOUNTING_API_KEY?.trim();
  if (!apiKey) {
    process.stderr.write('accounting mcp: set ACCOUNTING_API_KEY to an API key of the organization.\n');
    return 2;
  }
  const services = await createServices(config);
  try {
    await migrateToLatest(services.db);
    await serveMcpStdio(services, {
      apiKey,
      organizationId: env.ACCOUNTING_ORGANIZATION?.trim() || undefined,
    });
    return 0;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    process.stderr.write(`accounting mcp: ${error.code}: ${error.message}\n`);
    return 1;
  } finally {
    await services.db.close();
  }
}
