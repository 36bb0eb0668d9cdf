import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { NAVMAP_NS } from './navmap-names.ts';
import { parseNavmap } from './parse-navmap.ts';
import { codes, outline } from './test-support/test-outline.ts';
import type { NavmapNode } from './types.ts';

const URL_ = 'https://ex.org/nav/map.xml';
const XLINK = 'xmlns:xlink="http://www.w3.org/1999/xlink"';

/** A document: the sitemap root with the namespaces, `attributes` on it, `body` inside. */
function doc(body: string, attributes = ''): string {
  return `<sitemap xmlns="${NAVMAP_NS}" ${XLINK} ${attributes}>${body}</sitemap>`;
}

function parse(text: string | Uint8Array, charset?: string) {
  return parseNavmap(text, { url: URL_, ...(charset === undefined ? {} : { charset }) });
}

function first(text: string): NavmapNode {
  const node = parse(text).root?.children[0];
  assert.ok(node, 'a first node');
  return node;
}

describe('parseNavmap: inheritance', () => {
  test('lang, type, charset and target pass down; a nearer value wins; empty clears', () => {
    const tree = parse(
      doc(
        `<group name="G" lang="de" charset="utf-8">
           <item name="A" url="a" target="_blank"><item name="B" url="b" lang=""/></item>
           <item name="C" url="c" type="application/pdf"/>
         </group>`,
        'lang="en" type="text/html" target="_top"',
      ),
    );
    const group = tree.root?.children[0] as NavmapNode;
    const [a, c] = group.children as [NavmapNode, NavmapNode];
    const b = a.children[0] as NavmapNode;
    const values = (n: NavmapNode) => [n.lang, n.type, n.charset, n.target];
    assert.deepEqual(values(tree.root as NavmapNode), ['en', 'text/html', null, '_top']);
    assert.deepEqual(values(group), ['de', 'text/html', 'utf-8', '_top']);
    assert.deepEqual(values(a), ['de', 'text/html', 'utf-8', '_blank']);
    assert.deepEqual(values(b), [null, 'text/html', 'utf-8', '_blank']);
    assert.deepEqual(values(c), ['de', 'application/pdf', 'utf-8', '_top']);
  });

  test('xml:lang is read when lang is absent', () => {
    assert.equal(first(doc('<item name="A" url="a" xml:lang="fr"/>')).lang, 'fr');
  });

  test('a node spliced by #id keeps what it has where it is written, and takes the rest from its new place', () => {
    const tree = parse(
      doc(
        `<group name="Source" lang="de"><item xml:id="x" name="X" url="x"/></group>
         <group name="Target" lang="fr" target="_top"><external xlink:href="#x"/></group>`,
      ),
    );
    const spliced = tree.root?.children[1]?.children[0] as NavmapNode;
    assert.equal(spliced.label, 'X');
    assert.equal(spliced.lang, 'de');
    assert.equal(spliced.target, '_top');
  });
});

describe('parseNavmap: xml:base', () => {
  const CASES: readonly [string, string, string][] = [
    [
      'no xml:base: the document URL',
      doc('<item name="A" url="a.html"/>'),
      'https://ex.org/nav/a.html',
    ],
    [
      'a chain: root, group, item',
      doc(
        '<group xml:base="y/"><item xml:base="../z/" name="A" url="p.html"/></group>',
        'xml:base="https://a.example/x/"',
      ),
      'https://a.example/x/z/p.html',
    ],
    [
      'a relative root base resolves against the document URL',
      doc('<item name="A" url="p"/>', 'xml:base="../site/"'),
      'https://ex.org/site/p',
    ],
    [
      'the obsolete baseurl',
      doc('<item baseurl="https://b.example/d/" name="A" url="p"/>'),
      'https://b.example/d/p',
    ],
    [
      'xml:base wins over baseurl',
      doc('<item xml:base="/x/" baseurl="/y/" name="A" url="p"/>'),
      'https://ex.org/x/p',
    ],
    [
      'an invalid xml:base is skipped',
      doc('<item xml:base="http://[bad/" name="A" url="p"/>', 'xml:base="/k/"'),
      'https://ex.org/k/p',
    ],
    [
      'an absolute url ignores the base',
      doc('<item name="A" url="https://c.example/q"/>', 'xml:base="/k/"'),
      'https://c.example/q',
    ],
  ];
  for (const [name, text, expected] of CASES) {
    test(name, () => {
      let node = first(text);
      while (node.children[0] !== undefined) node = node.children[0];
      assert.equal(node.url, expected);
    });
  }

  test('the spec example: docs/ under https://ex.org/', () => {
    const tree = parse(
      doc(
        '<item name="Home" url="index.html"><item xml:base="docs/" name="API" url="api.html"/></item>',
        'xml:base="https://ex.org/"',
      ),
    );
    assert.deepEqual(outline(tree), [
      'Home <https://ex.org/index.html>',
      '  API <https://ex.org/docs/api.html>',
    ]);
    assert.deepEqual(codes(tree), []);
  });
});

describe('parseNavmap: variants', () => {
  test('a variant takes missing values from its node', () => {
    const node = first(
      doc(
        `<item name="News" url="news" description="Latest" lang="en">
           <variant lang="de" name="Neuigkeiten" url="de/news"/>
           <variant lang="fr" xml:base="/fr/"/>
         </item>`,
      ),
    );
    assert.deepEqual(node.variants, [
      {
        label: 'Neuigkeiten',
        url: 'https://ex.org/nav/de/news',
        description: 'Latest',
        lang: 'de',
        type: null,
        charset: null,
        target: null,
      },
      {
        label: 'News',
        url: 'https://ex.org/nav/news',
        description: 'Latest',
        lang: 'fr',
        type: null,
        charset: null,
        target: null,
      },
    ]);
  });

  test('an item with only variants, and a variant under the root is misplaced', () => {
    const tree = parse(
      doc('<variant name="Lost" url="lost"/><item><variant lang="en" name="N" url="n"/></item>'),
    );
    assert.deepEqual(outline(tree), ['-']);
    assert.equal(tree.root?.children[0]?.variants[0]?.label, 'N');
    assert.deepEqual(codes(tree), ['misplaced-element']);
  });
});

describe('parseNavmap: roles and reachability', () => {
  test('roles come from reached items, excluded ones included; not from unreached ones', () => {
    const tree = parse(
      doc(
        `<item name="Home" url="/" role="home start">
           <item name="Legal" url="/legal" role="copyright" tree="exclude">
             <item name="Imprint" url="/imprint" role="contentinfo"/>
           </item>
           <variant name="V" url="/v"><item name="In variant" url="/iv" role="search"/></variant>
         </item>
         <x:ext xmlns:x="urn:other"><item name="Foreign" url="/f" role="glossary"/></x:ext>
         <item name="Contact" url="/contact" role="Contact"/>`,
      ),
    );
    assert.deepEqual(tree.roles, {
      contact: [{ label: 'Contact', url: 'https://ex.org/contact' }],
      contentinfo: [{ label: 'Imprint', url: 'https://ex.org/imprint' }],
      copyright: [{ label: 'Legal', url: 'https://ex.org/legal' }],
      home: [{ label: 'Home', url: 'https://ex.org/' }],
      start: [{ label: 'Home', url: 'https://ex.org/' }],
    });
    assert.deepEqual(outline(tree), [
      'Home <https://ex.org/>',
      '  !Legal <https://ex.org/legal>',
      '    !Imprint <https://ex.org/imprint>',
      'Contact <https://ex.org/contact>',
    ]);
    // Both unreached places are said, not silently dropped.
    assert.deepEqual(codes(tree).sort(), ['foreign-element', 'misplaced-element']);
    assert.match(
      tree.diagnostics.find((d) => d.code === 'misplaced-element')?.message ?? '',
      /<item> is not allowed in <variant>/,
    );
  });

  test('tree="exclude" hides the node and its subtree from the displayed outline only', () => {
    const tree = parse(
      doc(
        '<item name="A" url="a" tree="exclude"/><item name="B" url="b" tree=" EXCLUDE "/><item name="C" url="c" tree="include"/>',
      ),
    );
    assert.deepEqual(
      tree.root?.children.map((n) => [n.label, n.inTree]),
      [
        ['A', false],
        ['B', false],
        ['C', true],
      ],
    );
  });
});

describe('parseNavmap: externals and loops within one file', () => {
  test('a node referenced from two places is repeated in each; its roles count once', () => {
    const tree = parse(
      doc(
        `<group name="Shared" xml:id="shared" tree="exclude"><item name="S" url="s" role="help"/></group>
         <item name="A" url="a"><external xlink:href="#shared"/></item>
         <item name="B" url="b"><external xlink:href="map.xml#shared"/></item>`,
      ),
    );
    assert.deepEqual(outline(tree), [
      '!Shared',
      '  !S <https://ex.org/nav/s>',
      'A <https://ex.org/nav/a>',
      '  !Shared',
      '    !S <https://ex.org/nav/s>',
      'B <https://ex.org/nav/b>',
      '  !Shared',
      '    !S <https://ex.org/nav/s>',
    ]);
    assert.deepEqual(tree.roles['help'], [{ label: 'S', url: 'https://ex.org/nav/s' }]);
  });

  test('"#id" is a same-document reference whatever xml:base says', () => {
    const tree = parse(
      doc(
        '<item xml:id="t" name="T" url="t"/><external xlink:href="#t"/>',
        'xml:base="https://elsewhere.example/"',
      ),
    );
    assert.deepEqual(outline(tree), [
      'T <https://elsewhere.example/t>',
      'T <https://elsewhere.example/t>',
    ]);
  });

  test('an item that contains a reference to itself appears once more, as a leaf', () => {
    const tree = parse(
      doc(
        '<item xml:id="a" name="A" url="a"><item name="A1" url="a1"/><external xlink:href="#a"/></item>',
      ),
    );
    assert.deepEqual(outline(tree), [
      'A <https://ex.org/nav/a>',
      '  A1 <https://ex.org/nav/a1>',
      '  *A <https://ex.org/nav/a>',
    ]);
    assert.deepEqual(codes(tree), ['loop']);
  });

  test('the repeated leaf of a loop keeps its variants and extras, not its children', () => {
    const tree = parse(
      doc(
        `<item xml:id="a"><variant lang="en" name="N" url="n"/><image src="i.png"/>
           <item name="Child" url="c"/><external xlink:href="#a"/></item>`,
      ),
    );
    const top = tree.root?.children[0] as NavmapNode;
    const leaf = top.children[1] as NavmapNode;
    assert.equal(leaf.repeated, true);
    assert.deepEqual(leaf.children, []);
    assert.deepEqual(leaf.variants, top.variants);
    assert.equal(leaf.variants[0]?.label, 'N');
    assert.deepEqual(leaf.extras, top.extras);
    assert.deepEqual(codes(tree), ['loop']);
  });

  test('a loop through two items', () => {
    const tree = parse(
      doc(
        `<item xml:id="a" name="A" url="a"><external xlink:href="#b"/></item>
         <item xml:id="b" name="B" url="b"><external xlink:href="#a"/></item>`,
      ),
    );
    assert.deepEqual(outline(tree), [
      'A <https://ex.org/nav/a>',
      '  B <https://ex.org/nav/b>',
      '    *A <https://ex.org/nav/a>',
      'B <https://ex.org/nav/b>',
      '  A <https://ex.org/nav/a>',
      '    *B <https://ex.org/nav/b>',
    ]);
  });

  test('externals that only lead to each other, a missing id, a bad target, no href', () => {
    const tree = parse(
      doc(
        `<external xml:id="e1" xlink:href="#e2"/><external xml:id="e2" xlink:href="#e1"/>
         <external xlink:href="#nothing"/><external xlink:href="#v"/><item name="I"><variant xml:id="v"/></item>
         <external/>`,
      ),
    );
    assert.deepEqual(outline(tree), ['?- <https://ex.org/nav/map.xml#nothing>', 'I']);
    assert.deepEqual([...new Set(codes(tree))].sort(), [
      'external-id-missing',
      'external-loop',
      'external-target-invalid',
      'external-without-href',
    ]);
  });

  test('the whole document spliced into itself is refused, not repeated forever', () => {
    const tree = parse(doc('<item name="A" url="a"/><external xlink:href="map.xml"/>'));
    assert.deepEqual(outline(tree), ['A <https://ex.org/nav/a>']);
    assert.deepEqual(codes(tree), ['external-loop']);
  });

  test('another file is not fetched by parseNavmap: a placeholder, and listed in unresolved', () => {
    const tree = parse(
      doc('<external xlink:href="parts.xml#faq"/><external xlink:href="/other.xml"/>'),
    );
    assert.deepEqual(outline(tree), [
      '?- <https://ex.org/nav/parts.xml#faq>',
      '?- <https://ex.org/other.xml>',
    ]);
    assert.deepEqual(tree.unresolved, ['https://ex.org/nav/parts.xml', 'https://ex.org/other.xml']);
    assert.deepEqual(
      tree.diagnostics.map((d) => [d.code, d.severity]),
      [
        ['external-not-loaded', 'info'],
        ['external-not-loaded', 'info'],
      ],
    );
  });
});

describe('parseNavmap: class-change', () => {
  test('read with the namespaces in scope; the obsolete <change> too', () => {
    const tree = parse(
      doc(
        `<class-change xmlns:h="http://www.w3.org/1999/xhtml" elem="/h:html/h:body" attr="class" prefix="nav"/>
         <change elem="//body"/><class-change attr="x"/><item name="I"><class-change elem="/x"/></item>`,
      ),
    );
    assert.deepEqual(tree.classChanges, [
      {
        elem: '/h:html/h:body',
        attr: 'class',
        prefix: 'nav',
        namespaces: {
          '': NAVMAP_NS,
          xlink: 'http://www.w3.org/1999/xlink',
          h: 'http://www.w3.org/1999/xhtml',
        },
      },
      {
        elem: '//body',
        attr: null,
        prefix: null,
        namespaces: { '': NAVMAP_NS, xlink: 'http://www.w3.org/1999/xlink' },
      },
    ]);
    assert.deepEqual(codes(tree).sort(), [
      'class-change-without-elem',
      'misplaced-element',
      'obsolete-form',
    ]);
  });
});

describe('parseNavmap: obsolete forms', () => {
  test('url beside xlink:href, <image> and <style> kept as data', () => {
    const tree = parse(
      doc(
        `<item xml:id="t" name="T" url="t"/>
         <item name="I" url="i"><image src="i.png" alt="Icon"/><style>color: red</style><external url="#t"/></item>`,
      ),
    );
    const item = tree.root?.children[1] as NavmapNode;
    assert.deepEqual(item.extras, [
      { name: 'image', attributes: { src: 'i.png', alt: 'Icon' }, text: '' },
      { name: 'style', attributes: {}, text: 'color: red' },
    ]);
    assert.deepEqual(outline(tree).slice(1), [
      'I <https://ex.org/nav/i>',
      '  T <https://ex.org/nav/t>',
    ]);
    assert.deepEqual(codes(tree), ['obsolete-form']);
  });

  test('an element name in the wrong case is read, with a warning', () => {
    const tree = parse(doc('<Item name="A" url="a"/>'));
    assert.deepEqual(outline(tree), ['A <https://ex.org/nav/a>']);
    assert.deepEqual(codes(tree), ['element-case']);
  });
});

describe('parseNavmap: namespaces and positions', () => {
  test('prefixed elements in the namespace are read; diagnostics carry line and column', () => {
    const tree = parse(
      `<nav:sitemap xmlns:nav="${NAVMAP_NS}">\n  <nav:item name="A" url="a">\n    <nav:item name="B" url="http://[x"/>\n  </nav:item>\n</nav:sitemap>`,
    );
    assert.deepEqual(outline(tree), ['A <https://ex.org/nav/a>', '  B']);
    assert.deepEqual(
      tree.diagnostics.map((d) => [d.code, d.line, d.column, d.url]),
      [['invalid-url', 3, 5, URL_]],
    );
  });
});

describe('parseNavmap: not a navigational sitemap', () => {
  const CASES: readonly [string, string, RegExp][] = [
    ['an HTML page', '<html><body>x</body></html>', /HTML page/],
    [
      'a sitemaps.org index',
      '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"/>',
      /<sitemapindex>/,
    ],
    ['sitemap in no namespace', '<sitemap><item name="A"/></sitemap>', /no namespace/],
    [
      'sitemap in another namespace',
      '<sitemap xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"/>',
      /namespace "http:\/\/www\.sitemaps\.org/,
    ],
    ['empty', '  ', /empty/],
    ['text', 'hello', /no root element/],
  ];
  for (const [name, text, why] of CASES) {
    test(name, () => {
      const tree = parse(text);
      assert.equal(tree.root, null);
      assert.equal(tree.diagnostics[0]?.severity, 'error');
      assert.match(tree.diagnostics[0]?.message ?? '', why);
    });
  }
});
