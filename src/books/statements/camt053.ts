import { StatementFileError, type StatementItem } from './types.ts';

export async function* parseCamt053(_text: string): AsyncGenerator<StatementItem> {
  yield* [];
  throw new StatementFileError('unsupported_format', 'camt053 is not read yet');
}
