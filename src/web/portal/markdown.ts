import type { Block, Inline } from '../../contractors/agreement-markdown.ts';
import { type Html, html, raw } from '../html.ts';

function inline(node: Inline): Html {
  if (node.type === 'text') return html`${node.text}`;
  if (node.type === 'code') return html`<code>${node.text}</code>`;
  if (node.type === 'em') return html`<em>${inlines(node.children)}</em>`;
  if (node.type === 'strong') return html`<strong>${inlines(node.children)}</strong>`;
  // Only http, https and mailto reach here (safeHref); the page is never the link's referrer.
  if (node.type === 'link') {
    return html`<a href="${node.href}" rel="noopener noreferrer">${inlines(node.children)}</a>`;
  }
  return html`${node.text}${inlines(node.children)}`;
}

function inlines(nodes: readonly Inline[]): Html {
  return html`${nodes.map(inline)}`;
}

function block(b: Block): Html {
  if (b.type === 'heading') {
    // The page's own h1 is the agreement's title, so `#` is an h2, and so on.
    const tag = `h${Math.min(b.level + 1, 6)}`;
    return html`${raw(`<${tag}>`)}${inlines(b.content)}${raw(`</${tag}>`)}\n`;
  }
  if (b.type === 'paragraph') return html`<p>${inlines(b.content)}</p>\n`;
  if (b.type === 'rule') return html`<hr>\n`;
  const items = b.items.map((item) => html`<li>${inlines(item)}</li>`);
  if (!b.ordered) return html`<ul>${items}</ul>\n`;
  return html`<ol${raw(b.start !== 1 ? ` start="${b.start}"` : '')}>${items}</ol>\n`;
}

/**
 * An agreement's Markdown as HTML (decision 450): every text escaped by the `html` tag, and no
 * raw HTML from the draft (the model has none).
 */
export function markdownHtml(blocks: readonly Block[]): Html {
  return html`${blocks.map(block)}`;
}
