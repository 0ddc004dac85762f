import { contractorOperations } from './contractors/index.ts';
import type { AnyOperation } from './define.ts';

/**
 * Every operation. HTTP routes, the OpenAPI document, MCP tools, the docs table and the shared
 * security tests are all derived from this list.
 */
export const OPERATIONS: readonly AnyOperation[] = [...contractorOperations];

const byName = new Map(OPERATIONS.map((operation) => [operation.name, operation]));

export function findOperation(name: string): AnyOperation | undefined {
  return byName.get(name);
}
