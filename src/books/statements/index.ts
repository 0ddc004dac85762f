import { StatementFileError, type StatementParse, type StatementSource } from './types.ts';

/**
 * Placeholder until the format parsers land (branch `statements`): every file is refused as a
 * file-level error, so an import fails cleanly and adds nothing.
 */
export function parseStatement(_source: StatementSource): StatementParse {
  throw new StatementFileError('unsupported_format', 'No statement parser is available yet.');
}
