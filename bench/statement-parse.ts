// Statement parser benchmark, run by hand (results go to docs/benchmarks.md):
//
//   node --import tsx bench/statement-parse.ts [--lines 100000]
//
// Builds a CSV of `lines` rows and a CAMT.053 of `lines` entries in memory, parses each through
// parseStatement and prints lines/s and the peak RSS sampled every 20 ms while it parses. The
// file itself is in memory (as the import job has it); what is measured is that parsing adds
// little on top of it: items are counted and dropped, never collected.
import { parseArgs } from 'node:util';
import { parseStatement, type StatementSource } from '../src/books/statements/index.ts';

const { values } = parseArgs({ options: { lines: { type: 'string', default: '100000' } } });
const count = Number(values.lines);

function csv(n: number): Buffer {
  const rows = ['Buchungstag;Valutadatum;Auftraggeber/Empfänger;Verwendungszweck;Betrag;Währung'];
  for (let i = 0; i < n; i++) {
    const day = String((i % 28) + 1).padStart(2, '0');
    const amount = `${i % 2 === 0 ? '-' : ''}${(i % 5000) + 1},${String(i % 100).padStart(2, '0')}`;
    rows.push(
      `${day}.03.2024;${day}.03.2024;Händler ${i % 997};"Rechnung ${i}; Kunde ${i % 313}";${amount};EUR`,
    );
  }
  return Buffer.from(`${rows.join('\n')}\n`, 'latin1');
}

function camt(n: number): Buffer {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>',
    '<GrpHdr><MsgId>BENCH</MsgId><CreDtTm>2024-03-31T00:00:00Z</CreDtTm></GrpHdr><Stmt><Id>S1</Id>',
    '<Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>',
  ];
  for (let i = 0; i < n; i++) {
    const day = String((i % 28) + 1).padStart(2, '0');
    parts.push(
      `<Ntry><Amt Ccy="EUR">${(i % 5000) + 1}.${String(i % 100).padStart(2, '0')}</Amt><CdtDbtInd>${i % 2 === 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd>` +
        `<Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2024-03-${day}</Dt></BookgDt><ValDt><Dt>2024-03-${day}</Dt></ValDt>` +
        `<AcctSvcrRef>REF${i}</AcctSvcrRef><NtryDtls><TxDtls><RltdPties><Cdtr><Pty><Nm>Händler ${i % 997}</Nm></Pty></Cdtr>` +
        `<CdtrAcct><Id><IBAN>DE02120300000000202051</IBAN></Id></CdtrAcct></RltdPties>` +
        `<RmtInf><Ustrd>Rechnung ${i}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>\n`,
    );
  }
  parts.push('</Stmt></BkToCstmrStmt></Document>\n');
  return Buffer.from(parts.join(''));
}

async function run(name: string, source: StatementSource): Promise<void> {
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  let lines = 0;
  let rejected = 0;
  for await (const item of parseStatement(source).items) {
    if (item.kind === 'line') lines++;
    else rejected++;
    if ((lines & 1023) === 0) peak = Math.max(peak, process.memoryUsage().rss);
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const mb = (b: number): string => `${(b / 1024 / 1024).toFixed(0)} MB`;
  console.log(
    `${name}: ${(source.bytes.length / 1024 / 1024).toFixed(1)} MB file, ${lines} lines, ${rejected} rejected, ` +
      `${seconds.toFixed(2)} s, ${Math.round(lines / seconds)} lines/s, RSS before ${mb(baseline)}, peak ${mb(peak)} (+${mb(peak - baseline)})`,
  );
}

const base = {
  mediaType: 'application/octet-stream',
  accountCurrency: 'EUR',
  accountKind: 'checking',
} as const;
await run('CSV', { ...base, bytes: csv(count), fileName: 'bench.csv' });
await run('CAMT.053', { ...base, bytes: camt(count), fileName: 'bench.xml' });
