import type { Kysely } from 'kysely';
import * as core from './0001-core.ts';
import * as contractors from './0002-contractors.ts';
import type { ColumnTypes } from './column-types.ts';

export interface AppMigration {
  up(db: Kysely<unknown>, types: ColumnTypes): Promise<void>;
}

/**
 * Every migration in order. Names sort lexically; a new area adds its file and one line here.
 * Migrations only move forward: a released one is never edited.
 */
export const MIGRATIONS: Record<string, AppMigration> = {
  '0001-core': core,
  '0002-contractors': contractors,
};
