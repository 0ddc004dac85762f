// Receipt extraction: one call per uploaded file, no database, no HTTP.
export { extractReceipt } from './extract.ts';
export { extractInProcess } from './extract-core.ts';
export * from './types.ts';
