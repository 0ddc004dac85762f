// Rewrites src/lib/iso4217.ts, the ISO 4217 currency table: npx tsx scripts/generate-iso4217.ts
//
// There is no network at build time, so the table comes from two maintained sources that are on
// every machine we build on, cross-checked:
//  - the Debian/Ubuntu `iso-codes` package (/usr/share/iso-codes/json/iso_4217.json): ISO 4217
//    list one (codes, numeric codes, names), including fund and precious-metal codes;
//  - ICU through Node's Intl (`Intl.supportedValuesOf('currency')` and the currency's
//    `maximumFractionDigits`): codes introduced after the iso-codes release and the minor units.
// ICU follows CLDR display conventions, which differ from ISO's minor unit for some currencies
// (CLDR shows IQD, IDR or HUF without decimals); ISO_MINOR_UNIT below restores ISO's value, and the
// generator fails when ICU disagrees with ISO on a code not listed there, so a refresh never changes
// what a stored minor unit means silently. Refresh: update `iso-codes` (apt) and/or Node, rerun this
// script, review the diff, and add ISO amendments (new or withdrawn codes) to the tables below.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ISO_CODES_JSON = '/usr/share/iso-codes/json/iso_4217.json';

/** ISO 4217 minor units that are not 2, and the codes whose minor unit is "N.A." (null). */
const ISO_MINOR_UNIT: Readonly<Record<string, number | null>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
  // Precious metals, bond-market units, SDR, test and "no currency" codes: no minor unit.
  XAG: null,
  XAU: null,
  XBA: null,
  XBB: null,
  XBC: null,
  XBD: null,
  XDR: null,
  XPD: null,
  XPT: null,
  XSU: null,
  XTS: null,
  XUA: null,
  XXX: null,
};

/** Codes ICU shows with a different number of decimals than ISO's minor unit (all ISO 2). */
const ICU_DISPLAY_DIFFERS = new Set([
  'AFN',
  'ALL',
  'COP',
  'HUF',
  'IDR',
  'IQD',
  'IRR',
  'KPW',
  'LAK',
  'LBP',
  'MGA',
  'MMK',
  'PKR',
  'SLL',
  'SOS',
  'SYP',
  'YER',
]);

/** Codes added to ISO 4217 after the installed iso-codes release (name, numeric code). */
const ADDED: Readonly<Record<string, readonly [string, string]>> = {
  XCG: ['Caribbean Guilder', '532'],
  ZWG: ['Zimbabwe Gold', '924'],
};

/**
 * Withdrawn codes (ISO 4217 list three) a file or a client may still send, with what replaced them
 * and when. Refused with that sentence rather than a bare "unsupported".
 */
const WITHDRAWN: Readonly<Record<string, readonly [string, string]>> = {
  ADP: ['EUR', '2002'],
  ATS: ['EUR', '2002'],
  BEF: ['EUR', '2002'],
  CYP: ['EUR', '2008'],
  DEM: ['EUR', '2002'],
  EEK: ['EUR', '2011'],
  ESP: ['EUR', '2002'],
  FIM: ['EUR', '2002'],
  FRF: ['EUR', '2002'],
  GRD: ['EUR', '2002'],
  HRK: ['EUR', '2023'],
  IEP: ['EUR', '2002'],
  ITL: ['EUR', '2002'],
  LTL: ['EUR', '2015'],
  LUF: ['EUR', '2002'],
  LVL: ['EUR', '2014'],
  MTL: ['EUR', '2008'],
  NLG: ['EUR', '2002'],
  PTE: ['EUR', '2002'],
  SIT: ['EUR', '2007'],
  SKK: ['EUR', '2009'],
  XEU: ['EUR', '1999'],
  ANG: ['XCG', '2025'],
  BGL: ['BGN', '1999'],
  BYR: ['BYN', '2017'],
  GHC: ['GHS', '2007'],
  MGF: ['MGA', '2005'],
  MRO: ['MRU', '2018'],
  MZM: ['MZN', '2006'],
  ROL: ['RON', '2006'],
  RUR: ['RUB', '1998'],
  SDD: ['SDG', '2007'],
  SLL: ['SLE', '2024'],
  SRG: ['SRD', '2004'],
  STD: ['STN', '2018'],
  TMM: ['TMT', '2009'],
  TRL: ['TRY', '2005'],
  VEB: ['VEF', '2008'],
  VEF: ['VES', '2018'],
  YUM: ['RSD', '2003'],
  ZMK: ['ZMW', '2013'],
  ZWD: ['ZWL', '2009'],
  ZWL: ['ZWG', '2024'],
  CSD: ['RSD', '2006'],
  AZM: ['AZN', '2006'],
};

type Entry = { code: string; numeric: string; name: string; exponent: number | null };

const listOne = (
  JSON.parse(readFileSync(ISO_CODES_JSON, 'utf8')) as {
    '4217': { alpha_3: string; numeric: string; name: string }[];
  }
)['4217'];
const entries = new Map<string, Entry>();
for (const row of listOne) {
  if (WITHDRAWN[row.alpha_3]) continue;
  entries.set(row.alpha_3, { code: row.alpha_3, numeric: row.numeric, name: row.name, exponent: 2 });
}
for (const [code, [name, numeric]] of Object.entries(ADDED)) {
  entries.set(code, { code, numeric, name, exponent: 2 });
}
const icu = new Set(Intl.supportedValuesOf('currency'));
for (const code of icu) {
  if (!entries.has(code) && !WITHDRAWN[code])
    throw new Error(`ICU knows ${code}: add it to ADDED or WITHDRAWN`);
}
for (const entry of entries.values()) {
  const iso = Object.hasOwn(ISO_MINOR_UNIT, entry.code) ? (ISO_MINOR_UNIT[entry.code] ?? null) : 2;
  entry.exponent = iso;
  if (iso === null || !icu.has(entry.code)) continue;
  const shown = new Intl.NumberFormat('en', { style: 'currency', currency: entry.code }).resolvedOptions()
    .maximumFractionDigits;
  if (shown !== iso && !ICU_DISPLAY_DIFFERS.has(entry.code))
    throw new Error(
      `ICU shows ${entry.code} with ${shown} decimals, ISO_MINOR_UNIT says ${iso}: check ISO 4217`,
    );
}

const sorted = [...entries.values()].sort((a, b) => a.code.localeCompare(b.code));
const tradable = sorted.filter((e) => e.exponent !== null);
const noMinor = sorted.filter((e) => e.exponent === null);
const lines = [
  '// GENERATED by scripts/generate-iso4217.ts from the iso-codes package and ICU; do not edit.',
  '// Refresh: npx tsx scripts/generate-iso4217.ts (see the script and docs/statements.md).',
  '',
  '/** ISO 4217 list one: code -> minor unit (decimals of one unit). */',
  '// biome-ignore format: one code per entry, generated',
  'export const ISO4217_MINOR_UNITS = {',
  ...tradable.map((e) => `  ${e.code}: ${e.exponent}, // ${e.numeric} ${e.name}`),
  '} as const;',
  '',
  '/** Codes in list one without a minor unit (metals, bond units, SDR, test): not money amounts here. */',
  'export const ISO4217_WITHOUT_MINOR_UNIT: Readonly<Record<string, string>> = {',
  ...noMinor.map((e) => `  ${e.code}: ${JSON.stringify(e.name)},`),
  '};',
  '',
  '/** Withdrawn codes (list three) still seen in files: code -> [replacement, year withdrawn]. */',
  'export const ISO4217_WITHDRAWN: Readonly<Record<string, readonly [string, string]>> = {',
  ...Object.entries(WITHDRAWN)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, [by, year]]) => `  ${code}: ['${by}', '${year}'],`),
  '};',
  '',
];
const target = fileURLToPath(new URL('../src/lib/iso4217.ts', import.meta.url));
writeFileSync(target, lines.join('\n'));
execFileSync('npx', ['biome', 'format', '--write', target], { stdio: 'ignore' });
console.log(
  `${tradable.length} currencies, ${noMinor.length} without minor unit, ${Object.keys(WITHDRAWN).length} withdrawn`,
);
