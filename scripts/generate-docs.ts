// Writes the generated documents (docs/operations.md, docs/errors.md, docs/events.md):
//   npm run docs            rewrite them
//   npm run docs -- --check exit 1 and list the files that are out of date
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedDocs } from '../src/docs-gen/index.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
const stale: string[] = [];
for (const [file, content] of Object.entries(generatedDocs())) {
  const target = path.join(root, file);
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // a missing file is out of date
  }
  if (current === content) continue;
  stale.push(file);
  if (!check) writeFileSync(target, content);
}
if (check && stale.length > 0) {
  process.stderr.write(`Out of date: ${stale.join(', ')}. Run \`npm run docs\`.\n`);
  process.exit(1);
}
process.stdout.write(
  stale.length ? `${check ? 'Stale' : 'Wrote'}: ${stale.join(', ')}\n` : 'Docs are up to date.\n',
);
