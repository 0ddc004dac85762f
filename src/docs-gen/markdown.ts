/** Small Markdown helpers for the generated documents. */

/** One table cell: pipes escaped, line breaks folded, so any description fits a row. */
export function cell(text: string): string {
  return text
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export function code(text: string): string {
  return `\`${text}\``;
}

/** The banner every generated file starts with, so nobody edits one by hand. */
export function generatedNotice(source: string): string {
  return `<!-- Generated from ${source} by \`npm run docs\`; do not edit by hand. -->`;
}
