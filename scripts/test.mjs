#!/usr/bin/env node
// Runs the whole suite with Node's test runner through tsx, on both databases unless
// TEST_DIALECTS narrows it. Extra arguments are passed on (e.g. a file or --test-name-pattern).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

function testFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'support' ? [] : testFiles(full);
    return name.endsWith('.test.ts') ? [full] : [];
  });
}

const args = process.argv.slice(2);
const files = args.some((a) => a.endsWith('.ts')) ? [] : testFiles('test').sort();
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=120000', ...files, ...args],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
process.exit(result.status ?? 1);
