import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseMarkdown, plainText } from '../../src/contractors/agreement-markdown.ts';
import { markdownHtml } from '../../src/web/portal/markdown.ts';

const render = (markdown: string) => markdownHtml(parseMarkdown(markdown)).text;

describe('agreement Markdown', () => {
  it('draws headings, paragraphs, emphasis, lists, rules, code and links', () => {
    const out = render(
      [
        '# Services agreement',
        '',
        'Between **Acme & Sons** and _Ada_,',
        'see [the terms](https://example.com/t?a=1&b=2) or [write](mailto:legal@example.com).',
        '',
        '## Duties ##',
        '',
        '- Bookkeeping *monthly*',
        '* Payroll, `code`',
        '  continued',
        '',
        '3. third',
        '4) fourth',
        '',
        '---',
        'snake_case_name stays, 2*3*4 has emphasis, **never closed stays',
      ].join('\n'),
    );
    assert.equal(
      out,
      [
        '<h2>Services agreement</h2>',
        '<p>Between <strong>Acme &amp; Sons</strong> and <em>Ada</em>,',
        'see <a href="https://example.com/t?a=1&amp;b=2" rel="noopener noreferrer">the terms</a> or <a href="mailto:legal@example.com" rel="noopener noreferrer">write</a>.</p>',
        '<h3>Duties</h3>',
        '<ul><li>Bookkeeping <em>monthly</em></li><li>Payroll, <code>code</code>',
        'continued</li></ul>',
        '<ol start="3"><li>third</li><li>fourth</li></ol>',
        '<hr>',
        '<p>snake_case_name stays, 2<em>3</em>4 has emphasis, **never closed stays</p>',
        '',
      ].join('\n'),
    );
  });

  it('lets no HTML through and draws only http, https and mailto links', () => {
    const out = render(
      [
        '<script>alert(1)</script> <b onclick="x">bold</b>',
        '[click](javascript:alert(1)) [data](data:text/html,<b>x</b>) [rel](/portal/hours) [js](JAVASCRIPT:alert`1`)',
        '[ok](http://example.com/"onmouseover="x) ![img](https://example.com/x.png)',
        '`<i>code</i>` \\*not emphasis\\* &amp; &#x3C;',
      ].join('\n'),
    );
    assert.doesNotMatch(out, /<script|<b[ >]|<i>|onclick="|href="javascript|href="data|href="\/portal/i);
    assert.match(out, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(out, /\[click\]\(javascript:alert\(1\)\)/);
    assert.match(
      out,
      /<a href="http:\/\/example.com\/%22onmouseover=%22x" rel="noopener noreferrer">ok<\/a>/,
    );
    assert.match(out, /<code>&lt;i&gt;code&lt;\/i&gt;<\/code> \*not emphasis\* &amp;amp; &amp;#x3C;/);
  });

  it('keeps the text a reader sees for the PDF (markers gone, link targets kept)', () => {
    const [paragraph] = parseMarkdown(
      'A **bold** and _em_ [site](https://example.com/) `x` [mail](mailto:a@example.com)',
    );
    assert.ok(paragraph?.type === 'paragraph');
    assert.equal(
      plainText(paragraph.content),
      'A bold and em site (https://example.com/) x mail (mailto:a@example.com)',
    );
  });

  // Stall guards, not speed assertions: each input would take minutes or blow the stack with a
  // backtracking or recursive parser; linear work finishes 200,000 characters in well under a second.
  const hostile: Record<string, string> = {
    'open brackets': '['.repeat(200_000),
    'links never closed': '[a]('.repeat(50_000),
    'stars that only open': ' *a'.repeat(66_000),
    'alternating delimiters': '*_'.repeat(100_000),
    'nested openers': '**a __b *c _d '.repeat(14_000),
    backticks: '`'.repeat(200_000),
    'heading marks': '# '.repeat(100_000),
    'list items': '- a\n'.repeat(50_000),
    'spaces then a hash': `${' '.repeat(199_999)}#`,
    backslashes: '\\'.repeat(200_000),
  };
  for (const [name, text] of Object.entries(hostile)) {
    it(`a hostile 200,000-character draft (${name}) renders at once`, { timeout: 20_000 }, () => {
      const started = process.hrtime.bigint();
      const out = render(text);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      assert.ok(out.length > 0);
      assert.ok(ms < 10_000, `${name}: ${ms} ms`);
    });
  }
});
