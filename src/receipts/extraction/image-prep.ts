import sharp from 'sharp';

// Image preparation before OCR, with sharp (libvips). Tesseract reads text best at roughly
// 25-40 px per capital letter, upright, dark on light: a 315 px wide till slip or a 1200 px
// screenshot of an A4 invoice is too small, a phone photo carries its orientation in EXIF and
// shows a table around the paper. What is done, in order:
// - EXIF orientation applied (phones store the picture sideways and say so in a tag);
// - the paper cropped out of a darker background (a bright block covering most of a photo);
// - grayscale; contrast stretched only for photos (paper found on a background): on a clean
//   scan or render, with print under 1 % of the pixels, a percentile stretch turns paper
//   noise black (tesseract thresholds locally anyway, see ocr.ts);
// - upscaled so the short side reaches MIN_SHORT_SIDE (factor capped at MAX_UPSCALE), or
//   downscaled so the long side stays under MAX_LONG_SIDE and the page under MAX_PIXELS (OCR
//   time grows with pixels);
// - table rules and boxes erased (eraseRules).
// Local thresholding is left to tesseract (`thresholding_method=2`, Sauvola), which does it on
// its own copy at the resolution it reads.

const MIN_SHORT_SIDE = 1400;
const MIN_LONG_SIDE = 2400;
const MAX_UPSCALE = 3;
const MAX_LONG_SIDE = 3600;
/** OCR time grows with pixels: about 4.5 MP is 200 dpi for an A4 page. */
const MAX_PIXELS = 4_500_000;

export interface PreparedImage {
  png: Buffer;
  width: number;
  height: number;
}

/** Bounds sharp's decoder: a header lying about its size cannot make libvips allocate more. */
function open(bytes: Buffer, maxPixels: number) {
  return sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error', sequentialRead: true });
}

export async function prepareForOcr(bytes: Buffer, maxPixels: number): Promise<PreparedImage> {
  // Transparent pixels become white paper, not black (screenshots and renders carry alpha).
  const upright = await open(bytes, maxPixels)
    .rotate()
    .flatten({ background: '#ffffff' })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height, channels } = upright.info;
  if (channels !== 1) throw new Error(`expected one channel after grayscale, got ${channels}`);
  const crop = paperBox(upright.data, width, height);
  // The final pipeline starts again from the file: the upright gray bitmap above only measured.
  let image = open(bytes, maxPixels).rotate().flatten({ background: '#ffffff' }).toColourspace('b-w');
  let w = width;
  let h = height;
  if (crop?.safe) {
    image = image.extract({ left: crop.left, top: crop.top, width: crop.width, height: crop.height });
    w = crop.width;
    h = crop.height;
  }
  // The paper's size decides the scale (a small receipt in a large photo needs more).
  const short = Math.min(crop?.width ?? w, crop?.height ?? h);
  const long = Math.max(crop?.width ?? w, crop?.height ?? h);
  let factor = Math.max(1, MIN_SHORT_SIDE / short, MIN_LONG_SIDE / long);
  factor = Math.min(factor, MAX_UPSCALE, MAX_LONG_SIDE / Math.max(w, h), Math.sqrt(MAX_PIXELS / (w * h)));
  if (Math.abs(factor - 1) > 0.05) {
    w = Math.round(w * factor);
    h = Math.round(h * factor);
    image = image.resize(w, h, { kernel: factor > 1 ? 'lanczos3' : 'lanczos3' });
  }
  // A photo (paper on a background) gets its contrast stretched; a scan or render does not.
  const raw = await (crop ? image.normalise() : image).raw().toBuffer({ resolveWithObject: true });
  eraseRules(raw.data, raw.info.width, raw.info.height);
  const png = await sharp(raw.data, { raw: { width: raw.info.width, height: raw.info.height, channels: 1 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
  return { png, width: raw.info.width, height: raw.info.height };
}

/**
 * Table rules and boxes: dark runs far longer than any letter stroke, horizontal or vertical,
 * painted white. Tesseract reads a boxed "110,00" as "1000" or drops the cell; invoices draw
 * their totals in boxes. Letters are left alone (a run must be far longer than a stroke), and
 * so are dark areas (a run must have light paper close on one side).
 */
export function eraseRules(gray: Buffer, width: number, height: number): void {
  const dark = 110;
  const minH = Math.max(80, Math.round(width / 25));
  const minV = Math.max(80, Math.round(height / 30));
  const erase: number[] = [];
  // A rule is thin: light paper a few pixels across it. A dark area (shadow, a grey photo
  // background) is not a rule, whatever its length.
  const light = 160;
  const thinAt = (i: number, across: number) =>
    (gray[i - 8 * across] ?? 255) > light || (gray[i + 8 * across] ?? 255) > light;
  for (let y = 0; y < height; y++) {
    let run = 0;
    for (let x = 0; x <= width; x++) {
      const isDark = x < width && (gray[y * width + x] ?? 255) < dark && thinAt(y * width + x, width);
      if (isDark) run++;
      else {
        if (run >= minH) for (let k = x - run; k < x; k++) erase.push(y * width + k);
        run = 0;
      }
    }
  }
  for (let x = 0; x < width; x++) {
    let run = 0;
    for (let y = 0; y <= height; y++) {
      const isDark = y < height && (gray[y * width + x] ?? 255) < dark && thinAt(y * width + x, 1);
      if (isDark) run++;
      else {
        if (run >= minV) for (let k = y - run; k < y; k++) erase.push(k * width + x);
        run = 0;
      }
    }
  }
  for (const i of erase) gray[i] = 255;
}

/** Rotates a prepared image by a multiple of 90 degrees (OSD said the text is sideways). */
export async function rotatePrepared(image: PreparedImage, degrees: number): Promise<PreparedImage> {
  const png = await sharp(image.png).rotate(degrees).png({ compressionLevel: 1 }).toBuffer();
  const swap = degrees % 180 !== 0;
  return { png, width: swap ? image.height : image.width, height: swap ? image.width : image.height };
}

/**
 * The paper in a photo: on a coarse grid, the bounding box of the largest bright block when the
 * picture also has a clearly darker background. Returns undefined when the whole picture is the
 * page (scans, renders, screenshots) or no single bright block stands out.
 */
export function paperBox(
  gray: Buffer,
  width: number,
  height: number,
): { left: number; top: number; width: number; height: number; safe: boolean } | undefined {
  const cell = Math.max(4, Math.floor(Math.min(width, height) / 80));
  const cols = Math.floor(width / cell);
  const rows = Math.floor(height / cell);
  if (cols < 10 || rows < 10) return undefined;
  const means = new Float64Array(cols * rows);
  // Cells with strong contrast inside: print (or wood grain, which is not bright).
  const inked = new Uint8Array(cols * rows);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      let sum = 0;
      let lo = 255;
      let hi = 0;
      let count = 0;
      for (let y = r * cell; y < (r + 1) * cell; y += 2) {
        const row = y * width;
        for (let x = c * cell; x < (c + 1) * cell; x += 2) {
          const v = gray[row + x] ?? 0;
          sum += v;
          if (v < lo) lo = v;
          if (v > hi) hi = v;
          count++;
        }
      }
      means[r * cols + c] = sum / count;
      inked[r * cols + c] = hi - lo > 80 ? 1 : 0;
    }
  }
  const threshold = otsu(means);
  const bright = means.map((m) => (m > threshold ? 1 : 0));
  const share = bright.reduce((a, b) => a + b, 0) / bright.length;
  // Mostly bright (a scan or a render) or mostly dark: nothing to crop.
  if (share > 0.85 || share < 0.1) return undefined;
  // The background must be clearly darker than the paper, not text on paper.
  let brightSum = 0;
  let darkSum = 0;
  for (let i = 0; i < means.length; i++) {
    if (bright[i]) brightSum += means[i] ?? 0;
    else darkSum += means[i] ?? 0;
  }
  const brightMean = brightSum / Math.max(1, share * means.length);
  const darkMean = darkSum / Math.max(1, (1 - share) * means.length);
  if (brightMean - darkMean < 40) return undefined;
  // The 4-connected bright components whose box holds print: the paper, not a white margin
  // around a photo (text cells inside the paper are inside its box even when dark).
  const label = new Int32Array(cols * rows).fill(-1);
  let best: { size: number; minC: number; maxC: number; minR: number; maxR: number; ink: number } | undefined;
  const stack: number[] = [];
  for (let start = 0; start < bright.length; start++) {
    if (!bright[start] || label[start] !== -1) continue;
    const comp = { size: 0, minC: cols, maxC: 0, minR: rows, maxR: 0, ink: 0 };
    label[start] = start;
    stack.push(start);
    while (stack.length) {
      const i = stack.pop() as number;
      const r = Math.floor(i / cols);
      const c = i % cols;
      comp.size++;
      comp.minC = Math.min(comp.minC, c);
      comp.maxC = Math.max(comp.maxC, c);
      comp.minR = Math.min(comp.minR, r);
      comp.maxR = Math.max(comp.maxR, r);
      for (const [dr, dc] of [
        [1, 0],
        [-1, 0],
        [0, 1],
        [0, -1],
      ] as const) {
        const nr = r + dr;
        const nc = c + dc;
        if (nr < 0 || nc < 0 || nr >= rows || nc >= cols) continue;
        const j = nr * cols + nc;
        if (bright[j] && label[j] === -1) {
          label[j] = start;
          stack.push(j);
        }
      }
    }
    if (comp.size < 0.01 * cols * rows) continue;
    // Print inside the part, two cells away from its edge (the edge itself has contrast).
    for (let r = comp.minR + 2; r <= comp.maxR - 2; r++)
      for (let c = comp.minC + 2; c <= comp.maxC - 2; c++)
        if (bright[r * cols + c - 1] || bright[r * cols + c + 1]) comp.ink += inked[r * cols + c] ?? 0;
    // Shade can split the paper in parts: every bright part holding print joins the box.
    if (comp.ink < 10) continue;
    best = best
      ? {
          size: best.size + comp.size,
          minC: Math.min(best.minC, comp.minC),
          maxC: Math.max(best.maxC, comp.maxC),
          minR: Math.min(best.minR, comp.minR),
          maxR: Math.max(best.maxR, comp.maxR),
          ink: best.ink + comp.ink,
        }
      : comp;
  }
  if (!best || best.ink < 10) return undefined;
  // Cropping must not cut print away (a shadow across the paper reads as background): only
  // when nearly all the high-contrast cells are inside the box. Otherwise the box still tells
  // how large the paper, hence the print, is (for the upscaling), and nothing is cut.
  let inside = 0;
  let outside = 0;
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      if (!inked[r * cols + c]) continue;
      if (r >= best.minR && r <= best.maxR && c >= best.minC && c <= best.maxC) inside++;
      else outside++;
    }
  const safe = outside <= 0.05 * (inside + outside);
  const boxCells = (best.maxC - best.minC + 1) * (best.maxR - best.minR + 1);
  if (boxCells > 0.9 * cols * rows) return undefined;
  // One cell of margin, so characters at the paper's edge are kept.
  const left = Math.max(0, (best.minC - 1) * cell);
  const top = Math.max(0, (best.minR - 1) * cell);
  const right = Math.min(width, (best.maxC + 2) * cell);
  const bottom = Math.min(height, (best.maxR + 2) * cell);
  return { left, top, width: right - left, height: bottom - top, safe };
}

function otsu(values: Float64Array): number {
  const hist = new Float64Array(256);
  for (const v of values) {
    const bin = Math.min(255, Math.max(0, Math.round(v)));
    hist[bin] = (hist[bin] ?? 0) + 1;
  }
  const total = values.length;
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * (hist[i] ?? 0);
  let sumB = 0;
  let weightB = 0;
  let best = 0;
  let threshold = 128;
  for (let t = 0; t < 256; t++) {
    weightB += hist[t] ?? 0;
    if (weightB === 0) continue;
    const weightF = total - weightB;
    if (weightF === 0) break;
    sumB += t * (hist[t] ?? 0);
    const meanB = sumB / weightB;
    const meanF = (sum - sumB) / weightF;
    const between = weightB * weightF * (meanB - meanF) ** 2;
    if (between > best) {
      best = between;
      threshold = t;
    }
  }
  return threshold;
}
