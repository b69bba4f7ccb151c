import { test } from 'node:test';
import assert from 'node:assert/strict';
import { html, trustedHtml } from './html.ts';

test('interpolated text is escaped, nested html is not escaped twice', () => {
  const name = `<script>alert("x")</script> & 'q' \``;
  const page = html`<p title="${name}">${name}</p>${html`<b>${'a<b'}</b>`}`;
  assert.equal(
    page.text,
    '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39; &#96;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39; &#96;</p><b>a&lt;b</b>',
  );
});

test('arrays join, empty values render nothing, trusted markup stays', () => {
  const items = ['a', '<b>'].map((x) => html`<li>${x}</li>`);
  assert.equal(html`<ul>${items}${null}${undefined}${false}${0}</ul>${trustedHtml('<hr>')}`.text, '<ul><li>a</li><li>&lt;b&gt;</li>0</ul><hr>');
});
