// Side by side, run by hand: the tesseract CLI (what the service uses, decision 298) and
// tesseract.js (the same engine in WebAssembly, installable by npm) on the photos and rendered
// images of the shared corpus, one at a time, page segmentation 4, English. tesseract.js is not a
// dependency of the project: install it in a scratch folder first and point TJS_DIR at it.
//
//   mkdir /tmp/tjs && (cd /tmp/tjs && npm init -y && npm install tesseract.js@7.0.0 @tesseract.js-data/eng)
//   TJS_DIR=/tmp/tjs node bench/ocr-engines.mjs
//
// Prints the time each engine took for all images and on how many images the expected total
// (MANIFEST.json, minor units) appears among the digits of the text: a coarse reading check that
// treats both engines alike.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const tjsDir = process.env.TJS_DIR ?? '/tmp/tjs';
const require = createRequire(path.join(tjsDir, 'package.json'));
const { createWorker } = require('tesseract.js');
const dir = path.resolve('..', 'shared', 'corpus', 'receipts');
const expected = new Map(
  JSON.parse(readFileSync(path.join(dir, 'MANIFEST.json'), 'utf8')).receipts.map((r) => [r.file, r.expected]),
);
const images = readdirSync(dir).filter((f) => /\.(png|jpe?g)$/i.test(f));
const langPath = path.join(tjsDir, 'node_modules', '@tesseract.js-data', 'eng', '4.0.0_best_int');
const worker = await createWorker('eng', 1, { langPath, gzip: true, cachePath: path.join(tjsDir, 'cache') });
await worker.setParameters({ tessedit_pageseg_mode: '4' });
const found = (text, file) => {
  const total = expected.get(file)?.totalMinor;
  return total !== undefined && text.replace(/\D/g, '').includes(String(total));
};
const result = { images: images.length, wasmMs: 0, cliMs: 0, wasmTotalSeen: 0, cliTotalSeen: 0 };
for (const file of images) {
  const full = path.join(dir, file);
  let start = Date.now();
  const { data } = await worker.recognize(full);
  result.wasmMs += Date.now() - start;
  if (found(data.text, file)) result.wasmTotalSeen++;
  start = Date.now();
  const text = execFileSync('tesseract', [full, 'stdout', '-l', 'eng', '--psm', '4'], {
    env: { ...process.env, OMP_THREAD_LIMIT: '1' },
    stdio: ['ignore', 'pipe', 'ignore'],
  }).toString();
  result.cliMs += Date.now() - start;
  if (found(text, file)) result.cliTotalSeen++;
}
await worker.terminate();
console.log(JSON.stringify(result));
