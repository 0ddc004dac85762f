// Compiles the service to plain JavaScript for production (issue 16, "Lean runtime"):
//   node scripts/build.mjs         (bin/accounting runs it on its own when dist/ is missing or stale)
// esbuild bundles our TypeScript into dist/current/accounting.mjs (the CLI and everything it
// starts) and one bundle per child of the parsing sandbox (statement-sandbox.mjs,
// extraction-sandbox.mjs, agreement-sandbox.mjs: child processes that read untrusted files,
// src/lib/sandbox); packages
// stay in node_modules, except kysely and typebox (BUNDLED below). Code behind a dynamic import()
// (MCP, the API reference, admin commands) is split into chunks that load on first use. Each build goes to a directory of its own and the
// `current` link is swapped to it in one rename, so processes that start together (a test run, a
// deployment) never read a half-written or mixed build.
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = path.join(ROOT, 'dist');
export const ENTRIES = {
  accounting: 'src/cli/main.ts',
  // Children of the parsing sandbox (src/lib/sandbox): each its own bundle, started by path.
  'statement-sandbox': 'src/books/statements/sandbox-child.ts',
  'extraction-sandbox': 'src/receipts/extraction/sandbox-child.ts',
  'agreement-sandbox': 'src/contractors/agreement-sandbox-child.ts',
};

/** Packages bundled into dist/ (see the build options). */
export const BUNDLED = ['kysely', 'typebox'];

/** Every bare import is external (left to node_modules) unless its package is in `bundled`. */
function externalExcept(bundled) {
  return {
    name: 'external-except',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:')) return { path: args.path, external: true };
        const name = args.path.startsWith('@')
          ? args.path.split('/').slice(0, 2).join('/')
          : args.path.split('/')[0];
        return bundled.includes(name) ? undefined : { path: args.path, external: true };
      });
    },
  };
}

export async function build() {
  const { build: esbuild } = await import('esbuild');
  const name = `build-${Date.now()}-${process.pid}`;
  const outdir = path.join(DIST, name);
  mkdirSync(outdir, { recursive: true });
  try {
    await esbuild({
      absWorkingDir: ROOT,
      entryPoints: ENTRIES,
      outdir,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      splitting: true,
      chunkNames: 'chunk-[hash]',
      // Packages stay in node_modules, except the pure-ESM ones of hundreds of small files that
      // every start loads (kysely, typebox): bundled, they cost one file read instead of a
      // resolution and a read per file.
      plugins: [externalExcept(BUNDLED)],
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: 'linked',
      logLevel: 'warning',
    });
    const link = path.join(DIST, `.current-${process.pid}`);
    rmSync(link, { force: true });
    symlinkSync(name, link);
    renameSync(link, path.join(DIST, 'current'));
  } catch (error) {
    rmSync(outdir, { recursive: true, force: true });
    throw error;
  }
  removeOldBuilds(name);
}

/**
 * A running process loads its lazy chunks from the build it started with, so a build is removed
 * only when three newer ones exist and it is over a day old (a deployment restarts its processes
 * well before that; a developer's edits leave at most a few megabytes behind).
 */
function removeOldBuilds(keep) {
  const builds = readdirSync(DIST)
    .filter((entry) => entry.startsWith('build-') && entry !== keep)
    .map((entry) => ({ full: path.join(DIST, entry), mtime: statSync(path.join(DIST, entry)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const build of builds.slice(2)) {
    if (Date.now() - build.mtime > 86_400_000) rmSync(build.full, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  await build();
  process.stderr.write(`built dist/ in ${Math.round(performance.now() - started)} ms\n`);
}
