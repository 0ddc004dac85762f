import type { ColumnType } from 'kysely';

/**
 * Column value conventions shared by both databases (see docs/decisions.md):
 * - ids: UUID strings made by the application (uuid on PostgreSQL, text on SQLite);
 * - timestamps: ISO 8601 UTC strings in and out (timestamptz / text);
 * - booleans: written as 1/0 (PostgreSQL reads '1'/'0' as boolean), read back through `asBool`;
 * - JSON: written as a string, read back through `asJson` (jsonb / text);
 * - money: integer minor units (bigint / integer), read back through `asMinor`.
 */
export type Timestamp = string;
export type Bool = ColumnType<boolean | number, number, number>;
export type Json = ColumnType<unknown, string, string>;
export type Minor = ColumnType<string | number | bigint, string | number | bigint, string | number | bigint>;
export type Blob = ColumnType<Buffer, Buffer, Buffer>;
