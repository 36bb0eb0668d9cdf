import assert from 'node:assert/strict';
import { test } from 'node:test';
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
  const again = parseNavmap(
    new TextEncoder().encode(`<sitemap xmlns="${NAVMAP_NS}"><item name="A" url="a"/></sitemap>`),
    { url: 'https://ex.org/map.xml' },
  );
  assert.equal(renderNavmap(again, 'json'), renderNavmap(structuredClone(again), 'json'));
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
