// Loaded into a child process with NODE_OPTIONS=--import (test/cli/lean-start.test.ts): appends
// the path of every module the process loads, ES module or CommonJS, to MODULE_TRACE_FILE.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const file = process.env.MODULE_TRACE_FILE;
if (file) {
  register(
    `data:text/javascript,${encodeURIComponent(`
      import { appendFileSync } from 'node:fs';
      export async function resolve(specifier, context, next) {
        const resolved = await next(specifier, context);
        appendFileSync(${JSON.stringify(file)}, resolved.url + '\\n');
        return resolved;
      }`)}`,
  );
  const Module = createRequire(import.meta.url)('node:module');
  const load = Module._load;
  Module._load = function traced(request, parent, isMain, ...rest) {
    try {
      appendFileSync(file, `${Module._resolveFilename(request, parent, isMain)}\n`);
    } catch {
      // A request that does not resolve fails in the real load below, as it would have.
    }
    return load.call(this, request, parent, isMain, ...rest);
  };
}
