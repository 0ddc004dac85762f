import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { StatementFileError } from './types.ts';

/** A small element tree, built only for the element being read (one CAMT entry), then dropped. */
export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  text: string;
  children: XmlNode[];
}

export function child(node: XmlNode | undefined, ...path: string[]): XmlNode | undefined {
  let at = node;
  for (const name of path) at = at?.children.find((c) => c.name === name);
  return at;
}

export function childrenNamed(node: XmlNode | undefined, name: string): XmlNode[] {
  return node === undefined ? [] : node.children.filter((c) => c.name === name);
}

export function textAt(node: XmlNode | undefined, ...path: string[]): string | null {
  const t = child(node, ...path)?.text.trim();
  return t === undefined || t === '' ? null : t;
}

const localName = (qualified: string): string => qualified.slice(qualified.indexOf(':') + 1);

/** Rejected before parsing: no DOCTYPE (so no entities, external or internal) in a bank statement. */
export function assertSafeXml(text: string): void {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) {
    throw new StatementFileError(
      'unsafe_xml',
      'the XML declares a DOCTYPE or an ENTITY; bank statements never do, and such files are refused (entity expansion, external entities)',
    );
  }
}

/**
 * Limits per captured element (one CAMT entry or account): a real entry has fewer than 200 elements,
 * a few KB of text and a depth under 12. Without them one `Ntry` of 5 million empty elements (20 MiB)
 * became a 1.2 GB tree. Outside captured elements only the depth and the text of one element count.
 */
export const XML_LIMITS = { nodes: 10_000, bytes: 1024 * 1024, depth: 64 } as const;

const tooBig = (what: string): StatementFileError =>
  new StatementFileError(
    'limit_exceeded',
    `one XML element holds ${what}; a bank statement entry never does, so the file is refused`,
  );

export interface XmlStreamHandlers {
  /** Called with the path of element names (root first) when an element opens. Return true to build its tree. */
  capture(path: readonly string[]): boolean;
  /** A captured element closed, with its tree. */
  captured(node: XmlNode, path: readonly string[]): void;
  /** Text of an element that is not captured (for small context values such as the account IBAN). */
  text?(path: readonly string[], text: string, attrs: Record<string, string>): void;
}

/**
 * Streams XML through saxes (which never resolves entities beyond the five predefined ones and
 * character references), one decoded chunk at a time, yielding after each so the caller can hand
 * on what was completed. Memory stays bounded by one captured element plus one chunk. A DOCTYPE or
 * ENTITY declaration anywhere (also across a chunk boundary) stops the parse with `unsafe_xml`.
 */
export function* streamXml(chunks: Iterable<string>, handlers: XmlStreamHandlers): Generator<void> {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const path: string[] = [];
  const attrsStack: Array<Record<string, string>> = [];
  const texts: string[] = [];
  let stack: XmlNode[] = [];
  let failure: Error | null = null;
  // Size of the element being captured (reset when a capture starts) and of uncaptured text.
  let nodes = 0;
  let bytes = 0;
  const fail = (error: StatementFileError): undefined => {
    failure ??= error;
    stack = [];
  };
  parser.on('error', (e) => {
    failure ??= e;
  });
  parser.on('doctype', () => {
    failure ??= new StatementFileError('unsafe_xml', 'the XML declares a DOCTYPE; such files are refused');
  });
  parser.on('opentag', (tag: SaxesTagPlain) => {
    if (failure !== null) return;
    const name = localName(tag.name);
    if (path.length >= XML_LIMITS.depth)
      return fail(tooBig(`elements nested deeper than ${XML_LIMITS.depth}`));
    path.push(name);
    attrsStack.push(tag.attributes);
    texts.push('');
    if (stack.length > 0 || handlers.capture(path)) {
      if (stack.length === 0) {
        nodes = 0;
        bytes = 0;
      }
      nodes++;
      for (const [k, v] of Object.entries(tag.attributes)) bytes += k.length + v.length;
      if (nodes > XML_LIMITS.nodes) return fail(tooBig(`more than ${XML_LIMITS.nodes} elements`));
      if (bytes > XML_LIMITS.bytes) return fail(tooBig(`more than ${XML_LIMITS.bytes} characters`));
      const node: XmlNode = { name, attrs: tag.attributes, text: '', children: [] };
      stack.at(-1)?.children.push(node);
      stack.push(node);
    }
  });
  const onText = (t: string): undefined => {
    if (failure !== null) return;
    const top = stack.at(-1);
    if (top !== undefined) {
      bytes += t.length;
      if (bytes > XML_LIMITS.bytes) return fail(tooBig(`more than ${XML_LIMITS.bytes} characters`));
      top.text += t;
    } else if (texts.length > 0) {
      const own = (texts[texts.length - 1] ?? '') + t;
      if (own.length > XML_LIMITS.bytes) return fail(tooBig(`more than ${XML_LIMITS.bytes} characters`));
      texts[texts.length - 1] = own;
    }
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    if (failure !== null) return;
    const node = stack.pop();
    const own = texts.pop() ?? '';
    const attrs = attrsStack.pop() ?? {};
    if (node !== undefined && stack.length === 0) handlers.captured(node, path);
    else if (node === undefined && own.trim() !== '') handlers.text?.(path, own.trim(), attrs);
    path.pop();
  });
  try {
    let tail = '';
    for (const chunk of chunks) {
      assertSafeXml(tail + chunk.slice(0, 16));
      assertSafeXml(chunk);
      tail = chunk.slice(-16);
      parser.write(chunk);
      if (failure !== null) break;
      yield;
    }
    if (failure === null) parser.close();
  } catch (error) {
    failure ??= error as Error;
  }
  stack = [];
  if (failure !== null) {
    if (failure instanceof StatementFileError) throw failure;
    const message = (failure as Error).message;
    const truncated = /unclosed|unexpected end/i.test(message) || path.length > 0;
    throw new StatementFileError(
      'malformed_file',
      truncated
        ? `the XML ends before it is complete (truncated file?): ${message}`
        : `the XML is not well-formed: ${message}`,
    );
  }
  if (path.length > 0)
    throw new StatementFileError('malformed_file', 'the XML ends before it is complete (truncated file?)');
}
