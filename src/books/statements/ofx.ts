import { StatementFileError, type StatementItem } from './types.ts';

export async function* parseOfx(_text: string): AsyncGenerator<StatementItem> {
  yield* [];
  throw new StatementFileError('unsupported_format', 'ofx is not read yet');
}
