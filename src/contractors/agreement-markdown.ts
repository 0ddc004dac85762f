/**
 * The Markdown of agreement drafts, read into blocks the portal page and the signed PDF both draw
 * (decision 450): headings, paragraphs, lists, thematic breaks; inside them emphasis, strong,
 * code and links (http, https and mailto only; any other link stays the text it was written as).
 * No raw HTML exists in this model: `<b>` is text. Every pass is linear in the draft (a hostile
 * 200,000-character draft must not stall the page or the sandboxed renderer): no regular
 * expression here can backtrack, and no search restarts from an earlier position.
 */

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'code'; text: string }
  | { type: 'em'; children: Inline[] }
  | { type: 'strong'; children: Inline[] }
  | { type: 'link'; href: string; children: Inline[] }
  /** A delimiter run (`*`, `__`) that never closed: its text, then what followed it. */
  | { type: 'literal'; text: string; children: Inline[] };

export type Block =
  | { type: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; content: Inline[] }
  | { type: 'paragraph'; content: Inline[] }
  | { type: 'list'; ordered: boolean; start: number; items: Inline[][] }
  | { type: 'rule' };

const LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/** The link target when it is absolute and http, https or mailto; undefined otherwise. */
export function safeHref(target: string): string | undefined {
  try {
    const url = new URL(target);
    return LINK_PROTOCOLS.has(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------- blocks

interface OpenList {
  ordered: boolean;
  start: number;
  items: string[];
}

/** `# Title ##` -> [1, 'Title']; undefined when the line is not an ATX heading. */
function heading(line: string): [number, string] | undefined {
  let at = 0;
  while (at < 3 && line[at] === ' ') at++;
  let level = 0;
  while (line[at + level] === '#') level++;
  if (level < 1 || level > 6) return undefined;
  const after = line[at + level];
  if (after !== undefined && after !== ' ' && after !== '\t') return undefined;
  let text = line.slice(at + level).trim();
  // An optional closing run of #, after a space: `## Title ##`.
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end--;
  if (end === 0) text = '';
  else if (end < text.length && (text[end - 1] === ' ' || text[end - 1] === '\t'))
    text = text.slice(0, end).trim();
  return [level, text];
}

/** `---`, `* * *`, `___`: three or more of one of -*_ and nothing else but spaces. */
function isRule(trimmed: string): boolean {
  const mark = trimmed[0];
  if (mark !== '-' && mark !== '*' && mark !== '_') return false;
  let count = 0;
  for (const char of trimmed) {
    if (char === mark) count++;
    else if (char !== ' ' && char !== '\t') return false;
  }
  return count >= 3;
}

/** `- item`, `* item`, `+ item`, `1. item`, `2) item` (any indentation: nested lists are flattened). */
function listItem(line: string): { ordered: boolean; start: number; text: string } | undefined {
  let at = 0;
  while (line[at] === ' ' || line[at] === '\t') at++;
  const mark = line[at];
  let next = at + 1;
  let ordered = false;
  let start = 1;
  if (mark !== '-' && mark !== '*' && mark !== '+') {
    let digits = 0;
    while (digits < 9 && line[at + digits] !== undefined && /[0-9]/.test(line[at + digits] ?? '')) digits++;
    const close = line[at + digits];
    if (digits === 0 || (close !== '.' && close !== ')')) return undefined;
    ordered = true;
    start = Number(line.slice(at, at + digits));
    next = at + digits + 1;
  }
  const space = line[next];
  if (space !== ' ' && space !== '\t') return undefined;
  return { ordered, start, text: line.slice(next).trim() };
}

/** Reads a draft into blocks, in one pass over its lines. */
export function parseMarkdown(source: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] | undefined;
  let list: OpenList | undefined;
  let blankBefore = false;
  const closeParagraph = () => {
    if (paragraph) blocks.push({ type: 'paragraph', content: parseInline(paragraph.join('\n')) });
    paragraph = undefined;
  };
  const closeList = () => {
    if (list) {
      blocks.push({
        type: 'list',
        ordered: list.ordered,
        start: list.start,
        items: list.items.map((item) => parseInline(item)),
      });
    }
    list = undefined;
  };
  for (const line of source.replace(/\r\n?/g, '\n').split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '') {
      closeParagraph();
      blankBefore = true;
      continue;
    }
    const wasBlank = blankBefore;
    blankBefore = false;
    const title = heading(line);
    if (title) {
      closeParagraph();
      closeList();
      blocks.push({
        type: 'heading',
        level: title[0] as 1 | 2 | 3 | 4 | 5 | 6,
        content: parseInline(title[1]),
      });
      continue;
    }
    if (isRule(trimmed)) {
      closeParagraph();
      closeList();
      blocks.push({ type: 'rule' });
      continue;
    }
    const item = listItem(line);
    // Inside a paragraph only `1.` starts a list: "2026. was a good year" stays a sentence.
    if (item && !(paragraph && item.ordered && item.start !== 1)) {
      closeParagraph();
      if (list && list.ordered !== item.ordered) closeList();
      if (!list) list = { ordered: item.ordered, start: item.start, items: [] };
      list.items.push(item.text);
      continue;
    }
    // A line under an item continues it when indented, or directly after it (a lazy line).
    const indented = line[0] === ' ' || line[0] === '\t';
    if (list && !paragraph && (indented || !wasBlank)) {
      const last = list.items.length - 1;
      list.items[last] = `${list.items[last] ?? ''}\n${trimmed}`;
      continue;
    }
    closeList();
    if (paragraph) paragraph.push(trimmed);
    else paragraph = [trimmed];
  }
  closeParagraph();
  closeList();
  return blocks;
}

// ---------------------------------------------------------------- inlines

const PUNCTUATION = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');
const SPECIAL = /[\\`[*_]/g;

function isSpace(char: string | undefined): boolean {
  return char === undefined || char === ' ' || char === '\t' || char === '\n';
}

function isWordChar(char: string | undefined): boolean {
  return char !== undefined && /[\p{L}\p{N}]/u.test(char);
}

/** For each position, where the next of `chars` is (or -1): one pass from the end. */
function nextOf(text: string, chars: string): Int32Array {
  const next = new Int32Array(text.length + 1);
  next[text.length] = -1;
  for (let i = text.length - 1; i >= 0; i--)
    next[i] = chars.includes(text[i] ?? '') ? i : (next[i + 1] ?? -1);
  return next;
}

interface Frame {
  /** `*1`, `*2`, `_1`, `_2`: the delimiter and its length; the root has none. */
  kind: string;
  delimiter: string;
  children: Inline[];
}

/**
 * Inline Markdown in one left-to-right pass. A delimiter run opens emphasis (one character) or
 * strong (two) only while no run of its kind is open, so at most four are open at once and the
 * tree stays shallow whatever the input; a closer pops every frame above its opener, and those
 * become literal text in O(1) each. A link's text holds no brackets, so each character belongs to
 * at most one link and is read once more for it.
 */
export function parseInline(text: string): Inline[] {
  const backtick = nextOf(text, '`');
  const bracket = nextOf(text, '[]');
  const urlStop = nextOf(text, '() \t\n');
  const root: Frame = { kind: '', delimiter: '', children: [] };
  const frames: Frame[] = [root];
  const open = new Map<string, number>();
  let buffer = '';
  const top = () => frames[frames.length - 1] ?? root;
  const flush = () => {
    if (buffer !== '') top().children.push({ type: 'text', text: buffer });
    buffer = '';
  };
  let i = 0;
  while (i < text.length) {
    SPECIAL.lastIndex = i;
    const found = SPECIAL.exec(text);
    const at = found ? found.index : text.length;
    buffer += text.slice(i, at);
    if (!found) break;
    i = at;
    const char = text[i] ?? '';
    if (char === '\\') {
      const escaped = text[i + 1];
      if (escaped !== undefined && PUNCTUATION.has(escaped)) {
        buffer += escaped;
        i += 2;
      } else {
        buffer += '\\';
        i += 1;
      }
      continue;
    }
    if (char === '`') {
      const close = backtick[i + 1] ?? -1;
      if (close < 0) {
        buffer += '`';
        i += 1;
        continue;
      }
      flush();
      top().children.push({ type: 'code', text: text.slice(i + 1, close) });
      i = close + 1;
      continue;
    }
    if (char === '[') {
      const close = bracket[i + 1] ?? -1;
      const end =
        close >= 0 && text[close] === ']' && text[close + 1] === '(' ? (urlStop[close + 2] ?? -1) : -1;
      if (end < 0 || text[end] !== ')') {
        buffer += '[';
        i += 1;
        continue;
      }
      const label = text.slice(i + 1, close);
      const href = safeHref(text.slice(close + 2, end));
      if (href === undefined) {
        // Not a link we draw: it stays exactly as written.
        buffer += text.slice(i, end + 1);
      } else {
        flush();
        const children = label === '' ? [{ type: 'text' as const, text: href }] : parseInline(label);
        top().children.push({ type: 'link', href, children });
      }
      i = end + 1;
      continue;
    }
    // * or _: the whole run.
    let length = 1;
    while (text[i + length] === char) length++;
    const run = text.slice(i, i + length);
    const before = text[i - 1];
    const after = text[i + length];
    i += length;
    if (length > 2) {
      buffer += run;
      continue;
    }
    const kind = `${char}${length}`;
    let canOpen = !isSpace(after);
    let canClose = !isSpace(before);
    if (char === '_') {
      canOpen = canOpen && !isWordChar(before);
      canClose = canClose && !isWordChar(after);
    }
    if (canClose && (open.get(kind) ?? 0) > 0) {
      flush();
      for (;;) {
        const frame = frames.pop();
        if (!frame || frame === root) throw new Error('an open delimiter has no frame');
        open.set(frame.kind, (open.get(frame.kind) ?? 1) - 1);
        const parent = top();
        if (frame.kind === kind) {
          parent.children.push(
            length === 2
              ? { type: 'strong', children: frame.children }
              : { type: 'em', children: frame.children },
          );
          break;
        }
        parent.children.push({ type: 'literal', text: frame.delimiter, children: frame.children });
      }
      continue;
    }
    if (canOpen && (open.get(kind) ?? 0) === 0) {
      flush();
      frames.push({ kind, delimiter: run, children: [] });
      open.set(kind, 1);
      continue;
    }
    buffer += run;
  }
  flush();
  while (frames.length > 1) {
    const frame = frames.pop();
    if (!frame) break;
    top().children.push({ type: 'literal', text: frame.delimiter, children: frame.children });
  }
  return root.children;
}

/** The text a reader sees, without markup: a link keeps its target after its text. */
export function plainText(inlines: readonly Inline[]): string {
  let out = '';
  for (const node of inlines) {
    if (node.type === 'text' || node.type === 'code') out += node.text;
    else if (node.type === 'literal') out += node.text + plainText(node.children);
    else if (node.type === 'link') {
      const label = plainText(node.children);
      out += label === node.href || `mailto:${label}` === node.href ? label : `${label} (${node.href})`;
    } else out += plainText(node.children);
  }
  return out;
}
