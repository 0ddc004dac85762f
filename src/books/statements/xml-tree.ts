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
  parser.on('error', (e) => {
    failure ??= e;
  });
  parser.on('doctype', () => {
    failure ??= new StatementFileError('unsafe_xml', 'the XML declares a DOCTYPE; such files are refused');
  });
  parser.on('opentag', (tag: SaxesTagPlain) => {
    const name = localName(tag.name);
    path.push(name);
    attrsStack.push(tag.attributes);
    texts.push('');
    if (stack.length > 0 || handlers.capture(path)) {
      const node: XmlNode = { name, attrs: tag.attributes, text: '', children: [] };
      stack.at(-1)?.children.push(node);
      stack.push(node);
    }
  });
  const onText = (t: string): void => {
    const top = stack.at(-1);
    if (top !== undefined) top.text += t;
    else if (texts.length > 0) texts[texts.length - 1] += t;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
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
