import type { Config } from '../config.ts';

/** Placeholder until the MCP server lands (issue 5): says so plainly instead of pretending. */
export async function runMcpStdio(_config: Config): Promise<number> {
  process.stderr.write('accounting: the MCP server is not available in this build yet.\n');
  return 1;
}
