import type { Field } from '../types.ts';
import type { FieldMaker, TextLine } from './heuristics.ts';
import { creditNoteWords, invoiceWords, legalForms } from './labels.ts';

// The merchant: among the first lines of page 1, the first segment with a legal form, else the
// first segment that looks like a name (not a label, title, address number, URL or e-mail).

export function merchantOf(lines: TextLine[], f: FieldMaker): Field<string> | undefined {
  const top = lines.filter((l) => l.page === 1).slice(0, 8);
  let fallback: Field<string> | undefined;
  for (const line of top) {
    for (const seg of line.text.matchAll(/\S+(?: \S+)*/g)) {
      const text = seg[0].trim();
      const start = seg.index ?? 0;
      if (!/\p{L}{2}/u.test(text) || /[:@]|www\.|https?:|^\d/.test(text)) continue;
      // OCR may run the name into a title on the same line ("Cloudly Ltd INVOICE"): a name with
      // a legal form ends with its last one.
      const last = [...text.matchAll(new RegExp(legalForms.source, 'giu'))].at(-1);
      if (last) {
        const name = text.slice(0, (last.index ?? 0) + last[0].length);
        return f.make(line, { start, end: start + name.length }, name, 0.85);
      }
      const title = (invoiceWords.test(text) && text.split(/\s+/).length <= 3) || creditNoteWords.test(text);
      if (title || /^(receipt|quittung|beleg|reçu|ticket|kassenbon|tax invoice)$/iu.test(text)) continue;
      fallback ??= f.make(line, { start, end: start + text.length }, text, 0.6);
    }
  }
  return fallback;
}
