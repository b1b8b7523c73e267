// The portal's one escape helper and its password hashing, in isolation.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { escapeHtml, html, jsonData } from '../../src/portal/html.js';

// Called under another name so that Prettier leaves these templates' exact text alone.
const markup = html;
import { hashPassword, verifyPassword } from '../../src/portal/passwords.js';

describe('portal html', () => {
  test('every interpolated text is escaped: & < > " \'', () => {
    assert.equal(
      escapeHtml(`<a href="x" title='y'>&amp;</a>`),
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
    );
    const name = '<img src=x onerror=alert(1)>';
    assert.equal(markup`<p title="${name}">${name}</p>`.text, `<p title="${escapeHtml(name)}">${escapeHtml(name)}</p>`);
  });

  test('nested fragments are kept, lists are joined, empty values vanish, numbers print', () => {
    const items = ['a<b', 'c'].map((x) => markup`<li>${x}</li>`);
    assert.equal(markup`<ul>${items}</ul>${null}${undefined}${false}${0}`.text, '<ul><li>a&lt;b</li><li>c</li></ul>0');
  });

  test('JSON data blocks cannot close their script element', () => {
    const text = jsonData({ s: '</script><script>alert(1)</script>' }).text;
    assert.ok(!text.includes('</script>'));
    assert.deepEqual(JSON.parse(text), { s: '</script><script>alert(1)</script>' });
  });
});

describe('portal passwords', () => {
  test('a hash names scrypt and its parameters, is salted, and verifies only the right password', async () => {
    const a = await hashPassword('correct horse battery staple');
    const b = await hashPassword('correct horse battery staple');
    assert.match(a, /^scrypt\$32768\$8\$3\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    assert.notEqual(a, b, 'a random salt each time');
    assert.equal(await verifyPassword('correct horse battery staple', a), true);
    assert.equal(await verifyPassword('correct horse battery stapl', a), false);
    assert.equal(await verifyPassword('', a), false);
  });

  test('malformed or foreign hashes never verify', async () => {
    for (const stored of [
      '',
      'plain',
      'bcrypt$x',
      'scrypt$32768$8$3$$',
      'scrypt$0$8$1$c2FsdA$aGFzaA',
      'scrypt$9999999999$8$1$c2FsdA$aGFzaA',
    ]) {
      assert.equal(await verifyPassword('anything', stored), false, stored);
    }
  });
});
