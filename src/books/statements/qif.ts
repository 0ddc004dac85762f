import { StatementFileError, type StatementItem } from './types.ts';

export async function* parseQif(_text: string, _currency: string): AsyncGenerator<StatementItem> {
  yield* [];
  throw new StatementFileError('unsupported_format', 'qif is not read yet');
}
