/**
 * The import graph of src/ between rooms (top-level folders and files), read from the code, and
 * the layering rules of docs/architecture.md as functions over it. Type-only imports count: a
 * type is a dependency too.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export interface Import {
  /** Importing file, relative to src/. */
  from: string;
  /** Imported file, relative to src/ (may start with `../` for sdk/). */
  to: string;
}

const IMPORT = /(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g;

export function readImports(srcDir: string): Import[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.ts')) files.push(full);
    }
  };
  walk(srcDir);
  return files.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((match) => ({
      from: path.relative(srcDir, file),
      to: path.relative(srcDir, path.resolve(path.dirname(file), match[1] ?? match[2] ?? '')),
    })),
  );
}

/** `invoicing/schedules/run.ts` -> `invoicing`; `services.ts` -> `services.ts`. */
export function roomOf(file: string): string {
  return file.split('/')[0] ?? file;
}

/** Transports: they call operations, never the database. */
export const TRANSPORTS = ['http', 'mcp', 'cli', 'web', 'server.ts'];
/** The composition root and the settings it reads from the environment. */
export const ROOT = ['services.ts', 'config.ts'];
/** Derived from the catalog (docs, OpenAPI) or serving transports only (credentials). */
export const TOOLS = ['docs-gen', 'openapi', 'auth'];
/** Below everything: may import only each other. */
export const BASE = ['contract', 'db', 'lib', 'observability'];
/** The other named rooms; any folder not named anywhere is a domain (invoicing, webhooks, books...). */
export const NAMED = [...TRANSPORTS, ...ROOT, ...TOOLS, ...BASE, 'operations', 'jobs', 'unit', '..'];

export function isDomain(room: string): boolean {
  return !NAMED.includes(room);
}

/** What a room may not import (besides cycles, which are refused everywhere). */
export function forbiddenFor(room: string): (target: string) => boolean {
  const above = [...TRANSPORTS, ...ROOT, ...TOOLS, 'operations', 'jobs'];
  if (BASE.includes(room)) return (target) => !BASE.includes(target);
  // The unit of work records events and queues mail; it knows no other domain.
  if (room === 'unit')
    return (target) => above.includes(target) || (isDomain(target) && !['events', 'mail'].includes(target));
  if (isDomain(room)) return (target) => above.includes(target);
  return () => false;
}

export function layeringViolations(imports: readonly Import[]): string[] {
  return imports
    .filter(({ from, to }) => {
      const a = roomOf(from);
      const b = roomOf(to);
      return a !== b && forbiddenFor(a)(b);
    })
    .map(({ from, to }) => `${from} imports ${to}`);
}

/** Cycles between rooms (strongly connected components of more than one room). */
export function roomCycles(imports: readonly Import[]): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const { from, to } of imports) {
    const a = roomOf(from);
    const b = roomOf(to);
    if (a === b) continue;
    if (!edges.has(a)) edges.set(a, new Set());
    if (!edges.has(b)) edges.set(b, new Set());
    edges.get(a)?.add(b);
  }
  // Tarjan's algorithm.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter);
    counter += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w !== undefined) {
          onStack.delete(w);
          component.push(w);
        }
      } while (w !== undefined && w !== v);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return cycles;
}
