#!/usr/bin/env node
// Runs the whole suite with Node's test runner through tsx, on both databases unless
// TEST_DIALECTS narrows it. Extra arguments are passed on (e.g. a file or --test-name-pattern).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

function testFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'support' ? [] : testFiles(full);
    return name.endsWith('.test.ts') ? [full] : [];
  });
}

// Directories given as arguments stand for the test files under them (Node 20's runner does
// not search a directory it is given); with no file or directory, the whole suite runs.
const isDir = (a) => !a.startsWith('-') && existsSync(a) && statSync(a).isDirectory();
const given = process.argv.slice(2);
const args = given.flatMap((a) => (isDir(a) ? testFiles(a).sort() : [a]));
// Longest first: three files run at once, so a long file started last sets the suite's end while
// the other two slots sit idle. Files that drive Chromium are the longest, then larger files tend
// to hold more tests; without the order, test/web (alphabetically last) ran as the tail.
const weight = (file) => (/\.browser\.test\.ts$|\/web\//.test(file) ? 1e9 : 0) + statSync(file).size;
const longestFirst = (list) => list.sort((a, b) => weight(b) - weight(a) || a.localeCompare(b));
const files = given.some((a) => a.endsWith('.ts') || isDir(a)) ? [] : longestFirst(testFiles('test'));
if (files.length === 0 && !args.some((a) => a.endsWith('.ts'))) {
  process.stderr.write('no test files under the given directories\n');
  process.exit(1);
}
// Tests that start ./bin/accounting run the compiled build (dist/current); building it once here
// saves every such test of a fresh checkout from building it too, at the same time.
const { build } = await import('./build.mjs');
await build();
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    // Three files at once on a 2-core machine: most test time is spent waiting on databases,
    // HTTP peers, child processes and Chromium, not on the CPU (docs/benchmarks.md, the suite).
    '--test-concurrency=3',
    // Per test and per file: long enough for the largest browser file under that load.
    '--test-timeout=180000',
    // Node 20 reads everything after the first file as a file, so flags go first.
    ...args.filter((a) => a.startsWith('-')),
    ...files,
    ...args.filter((a) => !a.startsWith('-')),
  ],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
process.exit(result.status ?? 1);
