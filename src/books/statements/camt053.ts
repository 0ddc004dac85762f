import { entryToItems } from './camt-entry.ts';
import { StatementFileError, type StatementItem } from './types.ts';
import { streamXml, textAt, type XmlNode } from './xml-tree.ts';

/** Statement containers: camt.053 Stmt (and the same entry shape in camt.052 Rpt, camt.054 Ntfctn). */
const CONTAINERS = new Set(['Stmt', 'Rpt', 'Ntfctn']);

export interface CamtAccount {
  ref: string | null;
  currency: string | null;
}

/**
 * CAMT.053 (versions 02, 04, 08 share the parts read here). Each `Ntry` is captured as a small tree,
 * turned into items and dropped, so a 100,000-entry file is read in bounded memory. Line numbers
 * are 1-based entry numbers across the file.
 */
export async function* parseCamt053(chunks: Iterable<string>): AsyncGenerator<StatementItem> {
  const queue: StatementItem[] = [];
  let account: CamtAccount = { ref: null, currency: null };
  let statements = 0;
  let entryNumber = 0;
  const stream = streamXml(chunks, {
    capture(path) {
      const name = path.at(-1) ?? '';
      const parent = path.at(-2) ?? '';
      if (CONTAINERS.has(name) && path.at(-2)?.startsWith('BkToCstmr')) {
        statements++;
        account = { ref: null, currency: null };
      }
      return (name === 'Ntry' || name === 'Acct') && CONTAINERS.has(parent);
    },
    captured(node: XmlNode) {
      if (node.name === 'Acct') {
        account = {
          ref: textAt(node, 'Id', 'IBAN') ?? textAt(node, 'Id', 'Othr', 'Id'),
          currency: textAt(node, 'Ccy'),
        };
        return;
      }
      entryNumber++;
      queue.push(...entryToItems(node, entryNumber, account));
    },
  });
  for (const _ of stream) {
    while (queue.length > 0) {
      const item = queue.shift();
      if (item !== undefined) yield item;
    }
  }
  yield* queue.splice(0);
  if (statements === 0) {
    throw new StatementFileError(
      'malformed_file',
      'the XML has no BkToCstmrStmt/Stmt: not a CAMT.053 statement',
    );
  }
}
