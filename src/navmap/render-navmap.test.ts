import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { NAVMAP_NS } from './navmap-names.ts';
import { parseNavmap } from './parse-navmap.ts';
import { renderNavmap } from './render-navmap.ts';

const tree = parseNavmap(
  `<sitemap xmlns="${NAVMAP_NS}" xmlns:xlink="http://www.w3.org/1999/xlink" lang="en">
     <item xml:id="h" name="Home &amp; &lt;start&gt;" url="/?a=1&amp;b=&quot;2&quot;" role="home" target="_top" description="The start">
       <group name="Steps" relation="sequence">
         <item name="One" url="/1"/>
         <item name="Two" url="/2" type="application/pdf"/>
       </group>
       <item><variant lang="de" name="Neu" url="/de/"/><variant lang="fr" name="Nouveau" url="/fr/"/></item>
       <external xlink:href="#h"/>
       <external xlink:href="more.xml"/>
     </item>
     <item name="Hidden" url="/hidden" tree="exclude" role="contact"/>
   </sitemap>`,
  { url: 'https://ex.org/map.xml' },
);

test('text: an indented outline, then the roles', () => {
  assert.equal(
    renderNavmap(tree, 'text'),
    [
      'Home & <start> <https://ex.org/?a=1&b=%222%22> {home}',
      '  Steps (sequence)',
      '    One <https://ex.org/1>',
      '    Two <https://ex.org/2>',
      '  Neu <https://ex.org/de/> [de] | Nouveau <https://ex.org/fr/> [fr]',
      '  Home & <start> <https://ex.org/?a=1&b=%222%22> {home} (repeated: loop)',
      '  [not loaded: https://ex.org/more.xml]',
      '',
      'Roles:',
      '  contact: Hidden <https://ex.org/hidden>',
      '  home: Home & <start> <https://ex.org/?a=1&b=%222%22>',
      '',
    ].join('\n'),
  );
});

test('html: a nested nav/ul, escaped, inherited target, a sequence as ol, excluded and unloaded nodes left out', () => {
  assert.equal(
    renderNavmap(tree, 'html'),
    [
      '<nav class="navmap" lang="en">',
      '  <ul>',
      '    <li><a href="https://ex.org/?a=1&amp;b=%222%22" hreflang="en" target="_top" title="The start">Home &amp; &lt;start&gt;</a>',
      '      <ul>',
      '        <li><span>Steps</span>',
      '          <ol>',
      '            <li><a href="https://ex.org/1" hreflang="en" target="_top">One</a></li>',
      '            <li><a href="https://ex.org/2" hreflang="en" type="application/pdf" target="_top">Two</a></li>',
      '          </ol>',
      '        </li>',
      '        <li><a href="https://ex.org/de/" hreflang="de" target="_top">Neu</a> / <a href="https://ex.org/fr/" hreflang="fr" target="_top">Nouveau</a></li>',
      '        <li><a href="https://ex.org/?a=1&amp;b=%222%22" hreflang="en" target="_top" title="The start">Home &amp; &lt;start&gt;</a></li>',
      '      </ul>',
      '    </li>',
      '  </ul>',
      '</nav>',
      '',
    ].join('\n'),
  );
});

test('json: the whole tree, stable, and it reads back equal', () => {
  const json = renderNavmap(tree, 'json');
  assert.deepEqual(JSON.parse(json), tree);
  // Stable: every node has the same keys in the same order, whatever its element wrote first.
  const again = parseNavmap(
    `<sitemap xmlns="${NAVMAP_NS}"><item url="a" role="r" name="A" lang="x"/></sitemap>`,
    { url: 'https://ex.org/map.xml' },
  );
  const node = (JSON.parse(renderNavmap(again, 'json')) as typeof again).root?.children[0];
  assert.deepEqual(Object.keys(node ?? {}), [
    'kind',
    'label',
    'url',
    'description',
    'roles',
    'relation',
    'priority',
    'id',
    'inTree',
    'repeated',
    'lang',
    'type',
    'charset',
    'target',
    'variants',
    'extras',
    'children',
    'source',
  ]);
  assert.deepEqual(Object.keys(JSON.parse(json)), [
    'url',
    'root',
    'roles',
    'classChanges',
    'files',
    'unresolved',
    'diagnostics',
  ]);
});

test('a tree with no root renders as nothing (text) and an empty nav (html)', () => {
  const none = parseNavmap('<html/>', { url: 'https://ex.org/' });
  assert.equal(renderNavmap(none, 'text'), '');
  assert.equal(renderNavmap(none, 'html'), '<nav class="navmap">\n</nav>\n');
  assert.throws(() => renderNavmap(none, 'yaml' as 'text'), { code: 'invalid-argument' });
});

describe('hostile values are made safe in every format', () => {
  const hostile = parseNavmap(
    `<sitemap xmlns="${NAVMAP_NS}">
       <item name="Click &#x1b;]0;pwned&#x7;me&#x1b;[2J" url="javascript:alert(document.cookie)" role="x&#x9b;31m"/>
       <item name="Data" url="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;"/>
       <item name="Mail" url="mailto:team@ex.org" description="&#x202e;evil"/>
       <item name="&lt;img src=x onerror=alert(1)&gt;" url="https://ex.org/?q=&quot;&gt;&lt;script&gt;" lang="&quot; onmouseover=&quot;x"/>
     </sitemap>`,
    { url: 'https://ex.org/map.xml' },
  );
  /** C0 (but line feed), DEL, C1 and bidi controls: none may reach a terminal or a page raw. */
  const controls = (text: string) =>
    [...text].filter((c) => {
      const code = c.charCodeAt(0);
      return (
        (code < 0x20 && code !== 0x0a) ||
        (code >= 0x7f && code <= 0x9f) ||
        (code >= 0x202a && code <= 0x202e) ||
        (code >= 0x2066 && code <= 0x2069)
      );
    });

  test('text: control characters are shown as escapes, the rest as written', () => {
    const text = renderNavmap(hostile, 'text');
    assert.deepEqual(controls(text), []);
    assert.ok(
      text.startsWith(
        'Click \\x1b]0;pwned\\x07me\\x1b[2J <javascript:alert(document.cookie)> {x\\x9b31m}\n',
      ),
    );
    assert.match(text, /^ {2}x\\x9b31m: Click \\x1b/m);
  });

  test('json: controls as \\u escapes, and it still reads back equal', () => {
    const json = renderNavmap(hostile, 'json');
    assert.deepEqual(controls(json), []);
    assert.match(json, /"description": "\\u202eevil"/);
    assert.deepEqual(JSON.parse(json), hostile);
  });

  test('html: only http(s) and mailto URLs become links; every value is escaped', () => {
    const html = renderNavmap(hostile, 'html');
    assert.deepEqual(controls(html), []);
    assert.doesNotMatch(html, /javascript:|href="data:/);
    assert.doesNotMatch(html, /<script|<img/);
    assert.deepEqual(html.split('\n').slice(2, 6), [
      '    <li><span>Click &#x1B;]0;pwned&#x07;me&#x1B;[2J</span></li>',
      '    <li><span>Data</span></li>',
      '    <li><a href="mailto:team@ex.org" title="&#x202E;evil">Mail</a></li>',
      '    <li><a href="https://ex.org/?q=%22%3E%3Cscript%3E" hreflang="&quot; onmouseover=&quot;x">&lt;img src=x onerror=alert(1)&gt;</a></li>',
    ]);
  });
});
