import { ExtractionFailure } from './types.ts';

// A small namespace-aware XML reader for e-invoices. Written here rather than taken from a
// library so that the safety rule is ours and visible: any DOCTYPE or other markup
// declaration is refused before anything is expanded (no entity bombs, no XXE, no external
// fetches ever), only the five predefined entities and character references are decoded,
// and depth and element count are capped.

export interface XmlElement {
  /** Qualified name as written (`ram:SellerTradeParty`), used to build source paths. */
  name: string;
  local: string;
  ns: string;
  attrs: Map<string, string>;
  children: XmlElement[];
  text: string;
  parent: XmlElement | null;
  /** 1-based position among same-named siblings, for paths like `cac:TaxSubtotal[2]`. */
  position: number;
}

const MAX_DEPTH = 200;
const MAX_ELEMENTS = 500_000;
const predefined: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&([^;&\s]{1,10});/g, (_m, ref: string) => {
    if (ref.startsWith('#x') || ref.startsWith('#X'))
      return String.fromCodePoint(Number.parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(Number.parseInt(ref.slice(1), 10));
    const value = predefined[ref];
    if (value === undefined) throw new ExtractionFailure('unsafe_xml', `undeclared entity &${ref};`);
    return value;
  });
}

/** Decodes bytes by the XML declaration's encoding (UTF-8 unless it says Latin-1). */
export function decodeXmlBytes(bytes: Buffer): string {
  const head = bytes.subarray(0, 200).toString('latin1');
  const encoding = /encoding\s*=\s*["']([^"']+)["']/i.exec(head)?.[1]?.toLowerCase();
  const latin = encoding === 'iso-8859-1' || encoding === 'latin1' || encoding === 'windows-1252';
  const text = bytes.toString(latin ? 'latin1' : 'utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Refuses DTDs before parsing: the check every XML input passes, whatever its root. */
export function assertSafeXml(text: string): void {
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) {
    throw new ExtractionFailure('unsafe_xml', 'XML with a DOCTYPE or entity declaration is refused');
  }
}

const attrPattern = /([^\s=/>]+)\s*=\s*("([^"]*)"|'([^']*)')/g;

export function parseXml(text: string): XmlElement {
  assertSafeXml(text);
  const stack: { el: XmlElement; nsMap: Map<string, string>; seen: Map<string, number> }[] = [];
  const rootSeen = new Map<string, number>();
  let root: XmlElement | null = null;
  let count = 0;
  let i = 0;
  const fail = (why: string): never => {
    throw new ExtractionFailure('corrupt_file', `XML: ${why} at offset ${i}`);
  };
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    const top = stack[stack.length - 1];
    if (lt === -1 || lt > i) {
      const end = lt === -1 ? text.length : lt;
      if (top) top.el.text += decodeEntities(text.slice(i, end));
      else if (text.slice(i, end).trim() !== '') fail('text outside the root element');
      i = end;
      continue;
    }
    if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i);
      i = end === -1 ? fail('unterminated processing instruction') : end + 2;
    } else if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i);
      i = end === -1 ? fail('unterminated comment') : end + 3;
    } else if (text.startsWith('<![CDATA[', i)) {
      const end = text.indexOf(']]>', i);
      if (end === -1) fail('unterminated CDATA');
      if (top) top.el.text += text.slice(i + 9, end);
      i = end + 3;
    } else if (text.startsWith('<!', i)) {
      throw new ExtractionFailure('unsafe_xml', 'XML markup declarations are refused');
    } else if (text.startsWith('</', i)) {
      const end = text.indexOf('>', i);
      if (end === -1) fail('unterminated end tag');
      const name = text.slice(i + 2, end).trim();
      const open = stack.pop();
      if (!open || open.el.name !== name) fail(`mismatched end tag </${name}>`);
      i = end + 1;
    } else {
      const end = text.indexOf('>', i);
      if (end === -1) fail('unterminated start tag');
      const selfClosing = text[end - 1] === '/';
      const body = text.slice(i + 1, selfClosing ? end - 1 : end);
      const name = /^[^\s/>]+/.exec(body)?.[0] ?? fail('element without a name');
      const attrs = new Map<string, string>();
      for (const m of body.slice(name.length).matchAll(attrPattern)) {
        attrs.set(m[1] ?? '', decodeEntities(m[3] ?? m[4] ?? ''));
      }
      const nsMap = new Map(top?.nsMap ?? []);
      for (const [key, value] of attrs) {
        if (key === 'xmlns') nsMap.set('', value);
        else if (key.startsWith('xmlns:')) nsMap.set(key.slice(6), value);
      }
      const colon = name.indexOf(':');
      const prefix = colon === -1 ? '' : name.slice(0, colon);
      const parent = top?.el ?? null;
      // Counted per parent so that wide documents stay linear.
      const seen = top?.seen ?? rootSeen;
      const position = (seen.get(name) ?? 0) + 1;
      seen.set(name, position);
      const el: XmlElement = {
        name,
        local: colon === -1 ? name : name.slice(colon + 1),
        ns: nsMap.get(prefix) ?? '',
        attrs,
        children: [],
        text: '',
        parent,
        position,
      };
      if (++count > MAX_ELEMENTS) throw new ExtractionFailure('too_large', 'XML has too many elements');
      if (parent) parent.children.push(el);
      else if (root) fail('second root element');
      else root = el;
      if (!selfClosing) {
        if (stack.length >= MAX_DEPTH) throw new ExtractionFailure('too_large', 'XML nests too deeply');
        stack.push({ el, nsMap, seen: new Map() });
      }
      i = end + 1;
    }
  }
  if (!root || stack.length > 0) fail('unexpected end of document');
  return root as XmlElement;
}
