/**
 * Content negotiation for operations that also have a file form (RFC 9110, section 12.5.1): the
 * quality of a media type is that of the most specific range in `Accept` that matches it
 * (`type/sub` over `type/*` over `*\/*`). JSON stays the answer unless the file type is preferred,
 * so clients that send no Accept header, or `*\/*`, keep getting the documented JSON form.
 */

interface Range {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(header: string): Range[] {
  const ranges: Range[] = [];
  for (const part of header.split(',')) {
    const [mediaRange = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const [type, subtype] = mediaRange.split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const param of params) {
      const match = /^q=([01](?:\.\d{0,3})?)$/.exec(param);
      if (match) q = Math.min(1, Number(match[1]));
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

/** [quality, specificity] of `mediaType` under `ranges`; specificity 0 means no range matched. */
function quality(ranges: Range[], mediaType: string): [number, number] {
  const [type, subtype] = mediaType.toLowerCase().split('/');
  let best: [number, number] = [0, 0];
  for (const range of ranges) {
    const specificity =
      range.type === type && range.subtype === subtype
        ? 3
        : range.type === type && range.subtype === '*'
          ? 2
          : range.type === '*' && range.subtype === '*'
            ? 1
            : 0;
    if (specificity > best[1]) best = [range.q, specificity];
  }
  return best;
}

/** Whether the client asked for `mediaType` rather than JSON. */
export function prefersMediaType(accept: string | undefined, mediaType: string): boolean {
  if (!accept) return false;
  const ranges = parseAccept(accept);
  const [fileQ, fileSpecificity] = quality(ranges, mediaType);
  const [jsonQ, jsonSpecificity] = quality(ranges, 'application/json');
  if (fileQ === 0) return false;
  return fileQ > jsonQ || (fileQ === jsonQ && fileSpecificity > jsonSpecificity);
}
