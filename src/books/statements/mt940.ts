import { StatementFileError, type StatementItem } from './types.ts';

export async function* parseMt940(_text: string, _currency: string): AsyncGenerator<StatementItem> {
  yield* [];
  throw new StatementFileError('unsupported_format', 'mt940 is not read yet');
}
