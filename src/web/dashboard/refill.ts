import { escapeText } from '../html.ts';

/**
 * A refused form drawn again (issue 30 part 5), done once here for every form instead of by each
 * page: the controls of the form's own markup (made by `html`, so attributes are double-quoted
 * and escaped) get the values the member typed, and the control the error names gets the message
 * beside it. Pure string work on markup the pages made, never on input from outside.
 */

/** What was typed, every value of each name (checkboxes repeat a name). */
export type Typed = Readonly<Record<string, readonly string[]>>;

/** What kind of control the member sees for the field: a box to tick reads differently. */
export type ControlKind = 'text' | 'checkbox' | 'select' | 'file';

/** The words to show for the refusal, once the label of its field and its control are known. */
export type Words = (label: string | undefined, control: ControlKind) => string;

export interface RefillResult {
  html: string;
  /** True when the message sits beside a control of this form. */
  placed: boolean;
  /** The label of the control the error names, if the form has one. */
  label: string | undefined;
}

function attribute(attributes: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(attributes);
  return match ? unescapeText(match[1] ?? '') : undefined;
}

function unescapeText(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function withAttribute(attributes: string, name: string, value: string | undefined): string {
  const stripped = attributes.replace(new RegExp(`\\s${name}(="[^"]*")?(?=[\\s/]|$)`, 'g'), '');
  if (value === undefined) return stripped;
  return `${stripped} ${name}${value === '' ? '' : `="${escapeText(value)}"`}`;
}

const textOf = (inner: string): string | undefined =>
  unescapeText(inner.replace(/<[^>]*>/g, '')).trim() || undefined;

/**
 * The text of `<label for="id">`, tags and hints inside it left out; or of the label that wraps
 * the control at `at` (a checkbox: `<label><input …> I reviewed the originals</label>`).
 */
function labelOf(markup: string, id: string | undefined, at: number): string | undefined {
  const wrapping = /<label\b[^>]*>$/.test(markup.slice(0, at))
    ? /^([\s\S]*?)<\/label>/.exec(markup.slice(at))
    : null;
  if (wrapping) return textOf(wrapping[1] ?? '');
  if (!id) return undefined;
  const match = new RegExp(
    `<label\\b[^>]*\\sfor="${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*>([\\s\\S]*?)</label>`,
  ).exec(markup);
  return match ? textOf(match[1] ?? '') : undefined;
}

/** A group of boxes sharing a name (scopes) is named by its fieldset's legend, not one box's label. */
function groupLegend(markup: string, name: string | undefined, at: number): string | undefined {
  if (!name || markup.split(`name="${name}"`).length < 3) return undefined;
  const legends = [...markup.slice(0, at).matchAll(/<legend\b[^>]*>([\s\S]*?)<\/legend>/g)];
  const last = legends[legends.length - 1];
  return last ? textOf(last[1] ?? '') : undefined;
}

/** The selects' options with `selected` where the typed value is (an option without `value` sends its text). */
function reselect(inner: string, typed: readonly string[]): string {
  return inner.replace(/<option\b([^>]*)>([^<]*)/g, (_all, attributes: string, text: string) => {
    const value = attribute(attributes, 'value') ?? unescapeText(text).trim();
    return `<option${withAttribute(attributes, 'selected', typed.includes(value) ? '' : undefined)}>${text}`;
  });
}

/**
 * The form's markup with the typed values and, beside the control named `field` (or the file
 * input that carries it, `data-base64-into`), the message: `aria-invalid`, `aria-describedby`
 * joined to its hint, and focus on it. A field no control carries leaves `placed` false: the
 * caller shows the message above the form.
 */
export function refill(
  markup: string,
  typed: Typed,
  field: string | undefined,
  words: Words,
  support: string,
): RefillResult {
  let placed = false;
  let label: string | undefined;
  const out = markup.replace(
    /<(select|textarea)\b([^>]*)>([\s\S]*?)<\/\1>|<input\b([^>]*)>/g,
    (
      all: string,
      tag: string | undefined,
      attrs: string | undefined,
      inner: string | undefined,
      inputAttrs: string | undefined,
      at: number,
    ) => {
      const attributes: string = tag ? (attrs ?? '') : (inputAttrs ?? '');
      const name = attribute(attributes, 'name');
      const carries = attribute(attributes, 'data-base64-into');
      const type = (attribute(attributes, 'type') ?? 'text').toLowerCase();
      if (type === 'hidden' || type === 'submit') return all;
      let result = all;
      const values = name === undefined ? undefined : typed[name];
      if (name !== undefined && !name.startsWith('_')) {
        if (tag === 'select') result = `<select${attributes}>${reselect(inner ?? '', values ?? [])}</select>`;
        else if (tag === 'textarea')
          result = values ? `<textarea${attributes}>${escapeText(values[0] ?? '')}</textarea>` : all;
        else if (type === 'checkbox' || type === 'radio') {
          const value = attribute(attributes, 'value') ?? 'on';
          result = `<input${withAttribute(attributes, 'checked', values?.includes(value) ? '' : undefined)}>`;
        } else if (type !== 'file' && values)
          result = `<input${withAttribute(attributes, 'value', values[0] ?? '')}>`;
      }
      const named =
        field !== undefined &&
        (name === field || carries === field || (name !== undefined && field.startsWith(`${name}.`)));
      if (!named || placed) return result;
      placed = true;
      const id = attribute(attributes, 'id');
      const control: ControlKind =
        tag === 'select'
          ? 'select'
          : type === 'checkbox' || type === 'radio'
            ? 'checkbox'
            : type === 'file'
              ? 'file'
              : 'text';
      label = (control === 'checkbox' && groupLegend(markup, name, at)) || labelOf(markup, id, at);
      const errorId = `${id ?? `refused-${name ?? carries}`}-error`;
      const described = [attribute(attributes, 'aria-describedby'), errorId].filter(Boolean).join(' ');
      result = result.replace(
        /^<(input|select|textarea)\b([^>]*)>/,
        (_open, openTag: string, openAttrs: string) => {
          let next = withAttribute(openAttrs, 'aria-describedby', described);
          next = withAttribute(next, 'aria-invalid', 'true');
          next = withAttribute(next, 'autofocus', '');
          return `<${openTag}${next}>`;
        },
      );
      // A span (shown as a block): it may land inside a paragraph or a label's parent.
      const message = `<span class="field-error" id="${escapeText(errorId)}" role="alert" data-refusal><strong>${escapeText(words(label, control))}</strong> <span class="hint">${support}</span></span>`;
      return `${message}${result}`;
    },
  );
  // A checkbox or radio wrapped in its label: the message goes before the label, not inside it.
  const fixed = out.replace(
    /(<label\b[^>]*>)(<span class="field-error"[^>]*><strong>[\s\S]*?<\/strong> <span class="hint">[\s\S]*?<\/span><\/span>)/,
    '$2$1',
  );
  return { html: fixed, placed, label };
}

/**
 * Every `<details>` around the marked refusal opened, so a refused form in a folded section
 * ("Change …") is seen without a click.
 */
export function openAround(markup: string, marker = 'data-refusal>'): string {
  // With its `>`: a member's text (escaped) cannot contain it, so only our marker is found.
  const at = markup.indexOf(marker);
  if (at < 0) return markup;
  const open: number[] = [];
  const tags = /<details\b|<\/details>/g;
  for (let match = tags.exec(markup); match && match.index < at; match = tags.exec(markup)) {
    if (match[0] === '</details>') open.pop();
    else open.push(match.index);
  }
  let result = markup;
  for (const index of open.reverse()) {
    const end = result.indexOf('>', index);
    const opening = result.slice(index, end);
    if (!/\sopen(\s|=|$)/.test(opening)) result = `${result.slice(0, end)} open${result.slice(end)}`;
  }
  return result;
}
