import { type MailAttachment, toSingleLine } from '../message.ts';

/**
 * A template describes its message once, as blocks; render() writes both the text and the
 * HTML part from them, so the two never drift apart and escaping happens in one place.
 */
export type Block =
  | { paragraph: string }
  | { link: { label: string; href: string } }
  | { facts: readonly (readonly [label: string, value: string])[] };

/** What every template returns: a message without its recipients, ready for `{ to, ...mail }`. */
export type RenderedMail = {
  subject: string;
  text: string;
  html: string;
  tags: { kind: string };
  attachments?: MailAttachment[];
};

export function render(input: {
  kind: string;
  subject: string;
  blocks: readonly Block[];
  attachments?: MailAttachment[];
}): RenderedMail {
  // Names in a subject come from users (organization, contractor, party): a line break in
  // one must not make the message unsendable (validation refuses it), so it becomes a space.
  const subject = toSingleLine(input.subject);
  const text = `${input.blocks.map(blockText).join('\n\n')}\n`;
  const html = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family:sans-serif;line-height:1.5;color:#1a1a1a">',
    ...input.blocks.map(blockHtml),
    '</body></html>',
    '',
  ].join('\n');
  const rendered: RenderedMail = { subject, text, html, tags: { kind: input.kind } };
  if (input.attachments) rendered.attachments = input.attachments;
  return rendered;
}

function blockText(block: Block): string {
  if ('paragraph' in block) return block.paragraph;
  if ('link' in block) return `${block.link.label}:\n${block.link.href}`;
  return block.facts.map(([label, value]) => `${label}: ${value}`).join('\n');
}

function blockHtml(block: Block): string {
  if ('paragraph' in block) return `<p>${escapeHtml(block.paragraph)}</p>`;
  if ('link' in block) {
    return `<p><a href="${escapeHtml(block.link.href)}">${escapeHtml(block.link.label)}</a></p>`;
  }
  const rows = block.facts.map(
    ([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
  );
  return `<table cellpadding="4">${rows.join('')}</table>`;
}

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

/**
 * Only absolute http(s) links go into a message: escaping keeps an attribute closed but
 * would still let a `javascript:` or `data:` URL through.
 */
export function checkedLink(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new RangeError('mail link must be an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new RangeError('mail link must use https or http');
  }
  return url.href;
}

/** `2026-11-29T15:18:00.000Z` -> `2026-11-29 15:18 UTC`: the same text wherever the worker runs. */
export function formatTimestamp(iso: string): string {
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) throw new RangeError(`not a timestamp: ${iso}`);
  return `${time.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Calendar dates (due dates, schedule runs) are `YYYY-MM-DD` and shown as they are. */
export function checkedDate(date: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new RangeError(`not a date (YYYY-MM-DD): ${date}`);
  return date;
}
