// Receipt extraction: one call per uploaded file, no database, no HTTP.
export { extractReceipt } from './extract.ts';
export * from './types.ts';
