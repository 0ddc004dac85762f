import type { DialectName } from '../database.ts';

/** Column types per dialect, so one migration text serves both databases. */
export interface ColumnTypes {
  id: 'uuid' | 'text';
  timestamp: 'timestamptz' | 'text';
  json: 'jsonb' | 'text';
  bool: 'boolean' | 'integer';
  /** Money in minor units and other 64-bit counters. */
  bigint: 'bigint' | 'integer';
  blob: 'bytea' | 'blob';
}

export function columnTypes(dialect: DialectName): ColumnTypes {
  return dialect === 'postgres'
    ? {
        id: 'uuid',
        timestamp: 'timestamptz',
        json: 'jsonb',
        bool: 'boolean',
        bigint: 'bigint',
        blob: 'bytea',
      }
    : { id: 'text', timestamp: 'text', json: 'text', bool: 'integer', bigint: 'integer', blob: 'blob' };
}
