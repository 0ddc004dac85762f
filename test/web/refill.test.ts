import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pageAt } from '../../src/web/dashboard/in-place.ts';
import { openAround, refill } from '../../src/web/dashboard/refill.ts';
import type { PageHandler } from '../../src/web/dashboard/routes.ts';

const FORM =
  '<label for="f-name">Name</label><p class="hint" id="f-name-hint">Shown.</p><input id="f-name" name="name" type="text" aria-describedby="f-name-hint" value="old">' +
  '<label for="f-kind">Kind</label><select id="f-kind" name="kind"><option value="a" selected>A</option><option value="b">B</option></select>' +
  '<label for="f-zone">Zone</label><select id="f-zone" name="zone"><option selected>UTC</option><option>Europe/Berlin</option></select>' +
  '<label for="f-text">Text</label><textarea id="f-text" name="text" rows="2">stored</textarea>' +
  '<fieldset><legend>Scopes</legend><label class="choice"><input type="checkbox" name="scopes" value="r" checked> r</label><label class="choice"><input type="checkbox" name="scopes" value="w"> w</label></fieldset>' +
  '<input id="f-file" type="file" data-base64-into="contentBase64">';

const typed = {
  name: ['New <name> & "quoted"'],
  kind: ['b'],
  zone: ['Europe/Berlin'],
  text: ['typed\ntext'],
  scopes: ['w'],
};

describe('a refused form drawn again', () => {
  it('keeps every typed value and puts the message beside the named field', () => {
    const result = refill(FORM, typed, 'name', (label) => `${label} is taken.`, '(code)');
    assert.equal(result.placed, true);
    assert.equal(result.label, 'Name');
    assert.match(result.html, /value="New &lt;name&gt; &amp; &quot;quoted&quot;"/);
    assert.match(result.html, /<option value="a">A<\/option><option value="b" selected>B/);
    assert.match(result.html, /<option>UTC<\/option><option selected>Europe\/Berlin/);
    assert.match(result.html, /<textarea id="f-text" name="text" rows="2">typed\ntext<\/textarea>/);
    assert.match(result.html, /value="r"> r/);
    assert.match(result.html, /value="w" checked> w/);
    assert.match(
      result.html,
      /<span class="field-error" id="f-name-error" role="alert" data-refusal><strong>Name is taken\.<\/strong> <span class="hint">\(code\)<\/span><\/span><input id="f-name"[^>]* aria-describedby="f-name-hint f-name-error" aria-invalid="true" autofocus/,
    );
    assert.equal(result.html.match(/field-error/g)?.length, 1);
  });

  it('finds the file input that carries a base64 field', () => {
    const result = refill(FORM, {}, 'contentBase64', () => 'Not a PDF.', '');
    assert.equal(result.placed, true);
    assert.match(result.html, /id="f-file-error"[\s\S]*<input id="f-file"[^>]*aria-invalid="true"/);
  });

  it('puts a checkbox group message before the label that wraps the box', () => {
    let said = '';
    const result = refill(
      FORM,
      typed,
      'scopes',
      (label, control) => {
        said = `${label} ${control}`;
        return 'Not held.';
      },
      '',
    );
    assert.equal(said, 'Scopes checkbox');
    assert.match(
      result.html,
      /<legend>Scopes<\/legend><span class="field-error"[\s\S]*?<\/span><\/span><label class="choice"><input/,
    );
  });

  it('leaves a field no control carries to the caller', () => {
    const result = refill(FORM, typed, 'expectedRevision', () => 'Changed.', '');
    assert.equal(result.placed, false);
    assert.doesNotMatch(result.html, /field-error/);
  });

  it('opens the folded sections around the refusal, not the others', () => {
    const markup =
      '<details id="a"><summary>A</summary></details><details id="b"><summary>B</summary><details id="c"><p data-refusal></p></details></details>';
    assert.equal(
      openAround(markup),
      '<details id="a"><summary>A</summary></details><details id="b" open><summary>B</summary><details id="c" open><p data-refusal></p></details></details>',
    );
  });
});

describe('the page at a form’s back address', () => {
  const page =
    (name: string): PageHandler =>
    async () => ({ title: name, current: '', body: { text: name } as never });
  const pages = {
    '/dashboard/contractors/roles': page('roles'),
    '/dashboard/contractors/:id': page('contractor'),
    '/dashboard/webhooks/deliveries/:id': page('delivery'),
  };
  it('prefers a named page to a parameter and decodes the parameter', () => {
    assert.equal(
      pageAt('/dashboard/contractors/roles', pages)?.handler,
      pages['/dashboard/contractors/roles'],
    );
    assert.deepEqual(pageAt('/dashboard/contractors/a%20b', pages)?.params, { id: 'a b' });
    assert.deepEqual(pageAt('/dashboard/webhooks/deliveries/x', pages)?.params, { id: 'x' });
    assert.equal(pageAt('/dashboard/contractors/x/y', pages), undefined);
    assert.equal(pageAt('/dashboard/contractors/%E0', pages), undefined);
  });
});
