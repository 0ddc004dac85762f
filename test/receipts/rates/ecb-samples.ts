// ECB reference rates files, in the shape the ECB publishes (`eurofxref-daily.xml`,
// `eurofxref-hist-90d.xml`), built per test; nothing large is committed.

const HEAD = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
\t<gesmes:subject>Reference rates</gesmes:subject>
\t<gesmes:Sender>
\t\t<gesmes:name>European Central Bank</gesmes:name>
\t</gesmes:Sender>
\t<Cube>`;
const TAIL = `
\t</Cube>
</gesmes:Envelope>`;

/** One `Cube time` per entry, newest first as the ECB writes them. */
export function ecbFile(days: ReadonlyArray<{ date: string; rates: Record<string, string> }>): Buffer {
  const cubes = days
    .map(
      ({ date, rates }) =>
        `\n\t\t<Cube time='${date}'>${Object.entries(rates)
          .map(([currency, rate]) => `\n\t\t\t<Cube currency='${currency}' rate='${rate}'/>`)
          .join('')}\n\t\t</Cube>`,
    )
    .join('');
  return Buffer.from(HEAD + cubes + TAIL);
}

/** A 90-day-style file: three days. */
export const NINETY_DAYS = ecbFile([
  { date: '2026-11-27', rates: { USD: '1.0512', JPY: '162.04', GBP: '0.8391', THB: '37.912' } },
  { date: '2026-11-26', rates: { USD: '1.0498', JPY: '161.50', GBP: '0.8402', THB: '37.850' } },
  { date: '2026-11-20', rates: { USD: '1.0601', JPY: '163.10', GBP: '0.8377', THB: '38.100' } },
]);

/** The classic entity expansion, in an otherwise ECB-shaped file. */
export const BILLION_LAUGHS = Buffer.from(`<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01"><Cube><Cube time="2026-11-27"><Cube currency="USD" rate="&lol2;"/></Cube></Cube></gesmes:Envelope>`);

/** An external entity (XXE) reading a local file. */
export const EXTERNAL_ENTITY = Buffer.from(`<?xml version="1.0"?>
<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01"><Cube><Cube time="2026-11-27"><Cube currency="USD" rate="&x;"/></Cube></Cube></gesmes:Envelope>`);
