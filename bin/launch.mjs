// Starts the CLI (bin/accounting calls this). Production runs compiled JavaScript: dist/current is built
// from src/ when it is missing or older than any source file (about a second, once), then loaded
// by plain Node. ACCOUNTING_RUNTIME=tsx runs the TypeScript sources through tsx instead (how the
// tests and a developer's debugger see the code); a failed build falls back to it too.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const COMPILED = path.join(ROOT, 'dist', 'current', 'accounting.mjs');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function compiledIsFresh() {
  try {
    const built = statSync(COMPILED).mtimeMs;
    const inputs = Math.max(
      newestSource(path.join(ROOT, 'src')),
      statSync(path.join(ROOT, 'package-lock.json')).mtimeMs,
      statSync(path.join(ROOT, 'scripts', 'build.mjs')).mtimeMs,
    );
    return built >= inputs;
  } catch {
    return false;
  }
}

async function compiled() {
  if (process.env.ACCOUNTING_RUNTIME === 'tsx') return false;
  if (compiledIsFresh()) return true;
  try {
    const { build } = await import('../scripts/build.mjs');
    await build();
    return true;
  } catch (error) {
    process.stderr.write(`accounting: could not compile (${error.message}); running the sources with tsx\n`);
    return false;
  }
}

if (await compiled()) {
  await import(pathToFileURL(COMPILED).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(path.join(ROOT, 'src', 'cli', 'main.ts')).href);
}
