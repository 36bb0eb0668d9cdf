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
    assert.ok(codes(tree).includes('foreign-element'));
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

describe('parseNavmap: encodings', () => {
  const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
  const label = (bytes: Uint8Array, charset?: string) =>
    parse(bytes, charset).root?.children[0]?.label;

  test('the HTTP charset overrides the XML declaration', () => {
    const bytes = latin1(`<?xml version="1.0" encoding="utf-8"?>${doc('<item name="Café"/>')}`);
    const tree = parse(bytes, 'ISO-8859-1');
    assert.equal(tree.root?.children[0]?.label, 'Café');
    assert.deepEqual(codes(tree), ['charset-overrides-declaration']);
  });

  test('ISO-8859-1 from the declaration, exactly (0x80-0x9f are not windows-1252)', () => {
    const bytes = latin1(
      `<?xml version="1.0" encoding="ISO-8859-1"?>${doc('<item name="Café \x80"/>')}`,
    );
    assert.equal(label(bytes), 'Café \x80');
  });

  test('a BOM wins over the HTTP charset and the declaration', () => {
    const body = new TextEncoder().encode(
      `<?xml version="1.0" encoding="iso-8859-1"?>${doc('<item name="Grüße"/>')}`,
    );
    assert.equal(label(Uint8Array.of(0xef, 0xbb, 0xbf, ...body), 'iso-8859-1'), 'Grüße');
  });

  test('UTF-16 with a BOM, little- and big-endian', () => {
    const text = `<?xml version="1.0" encoding="UTF-16"?>${doc('<item name="日本"/>')}`;
    const le = [0xff, 0xfe];
    const be = [0xfe, 0xff];
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      le.push(c & 0xff, c >> 8);
      be.push(c >> 8, c & 0xff);
    }
    assert.equal(label(Uint8Array.from(le)), '日本');
    assert.equal(label(Uint8Array.from(be)), '日本');
  });

  test('an encoding the shared decoder lacks is read with TextDecoder', () => {
    const bytes = Uint8Array.of(
      ...latin1(
        `<?xml version="1.0" encoding="windows-1251"?><sitemap xmlns="${NAVMAP_NS}"><item name="`,
      ),
      0xcf,
      0xf0,
      0xe8,
      ...latin1('"/></sitemap>'),
    );
    assert.equal(label(bytes), 'При');
  });

  const utf16 = (text: string, order: 'le' | 'be') => {
    const out = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      out[2 * i + (order === 'le' ? 0 : 1)] = c & 0xff;
      out[2 * i + (order === 'le' ? 1 : 0)] = c >> 8;
    }
    return out;
  };

  test('a UTF-16 label over single-byte text: the bytes decide, with a warning', () => {
    const bytes = new TextEncoder().encode(
      `<?xml version="1.0" encoding="UTF-16"?>${doc('<item name="Grüße"/>')}`,
    );
    for (const charset of [undefined, 'utf-16']) {
      const tree = parse(bytes, charset);
      assert.equal(tree.root?.children[0]?.label, 'Grüße', String(charset));
      assert.deepEqual(codes(tree), ['encoding-mismatch']);
    }
  });

  test('UTF-16 without a BOM: the byte order comes from the bytes', () => {
    const text = doc('<item name="日本"/>');
    // HTTP says utf-16 (no order): read in the order the bytes show, silently.
    for (const order of ['le', 'be'] as const) {
      const tree = parse(utf16(text, order), 'utf-16');
      assert.equal(tree.root?.children[0]?.label, '日本', order);
      assert.deepEqual(codes(tree), []);
    }
    // Nothing says UTF-16: read as UTF-16 all the same, with a warning, not lost.
    const unlabelled = parse(utf16(text, 'be'));
    assert.equal(unlabelled.root?.children[0]?.label, '日本');
    assert.deepEqual(codes(unlabelled), ['encoding-mismatch']);
  });

  test('an HTTP charset nobody knows is reported and ignored; the declaration applies', () => {
    const bytes = latin1(`<?xml version="1.0" encoding="iso-8859-1"?>${doc('<item name="Café"/>')}`);
    const tree = parse(bytes, 'x-bogus');
    assert.equal(tree.root?.children[0]?.label, 'Café');
    assert.deepEqual(codes(tree), ['unsupported-encoding']);
  });

  test('invalid UTF-8 becomes U+FFFD, with a warning', () => {
    const [head, tail] = doc('<item name="a!"/>').split('!') as [string, string];
    const bytes = Uint8Array.of(...latin1(head), 0xff, ...latin1(tail));
    const tree = parse(bytes);
    assert.equal(tree.root?.children[0]?.label, 'a\ufffd');
    assert.deepEqual(codes(tree), ['invalid-encoding']);
  });
});

describe('parseNavmap: hostile input', () => {
  test('XXE: no DTD and no external entity is ever read', () => {
    const text = `<?xml version="1.0"?><!DOCTYPE sitemap [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${doc('<item name="&xxe;" url="&xxe;"/>')}`;
    const tree = parse(text);
    assert.equal(tree.root?.children[0]?.label, '&xxe;');
    assert.ok(codes(tree).includes('dtd-ignored'));
    assert.doesNotMatch(JSON.stringify(tree), /root:/);
  });

  test('billion laughs: entities are never expanded', () => {
    const entities = ['<!ENTITY lol "lol">'];
    for (let i = 1; i <= 9; i++)
      entities.push(`<!ENTITY lol${i} "${`&lol${i - 1 || ''};`.repeat(10)}">`);
    const text = `<!DOCTYPE sitemap [${entities.join('')}]>${doc('<item name="&lol9;"/>')}`;
    const tree = parse(text);
    assert.equal(tree.root?.children[0]?.label, '&lol9;');
    assert.ok(JSON.stringify(tree).length < 10_000);
  });

  test('10,000-deep nesting: cut at a bounded depth, with a diagnostic', () => {
    const depth = 10_000;
    const text = doc(`${'<item name="x">'.repeat(depth)}${'</item>'.repeat(depth)}`);
    const tree = parse(text);
    let levels = 0;
    for (let node = tree.root?.children[0]; node !== undefined; node = node.children[0]) levels++;
    assert.ok(levels > 100 && levels < 300, `levels: ${levels}`);
    assert.ok(codes(tree).includes('too-deep'));
  });

  test('an exponential web of references stops at maxNodes', () => {
    let body = '<group xml:id="g20" name="leaf"/>';
    for (let i = 19; i >= 0; i--) {
      body += `<group xml:id="g${i}" name="g${i}"><external xlink:href="#g${i + 1}"/><external xlink:href="#g${i + 1}"/></group>`;
    }
    const tree = parseNavmap(doc(body), { url: URL_, maxNodes: 5_000 });
    const count = (nodes: readonly NavmapNode[]): number =>
      nodes.reduce((n, node) => n + 1 + count(node.children), 0);
    assert.ok(count(tree.root?.children ?? []) <= 5_000);
    assert.ok(codes(tree).includes('too-many-nodes'));
  });

  test('truncated files: every prefix of a document parses, and a cut is reported', () => {
    const text = doc(
      '<item name="Home" url="/"><group name="G"><item name="A" url="a"/><variant lang="de" name="B"/></group></item><item name="C" url="c" role="contact"/>',
    );
    for (let cut = 0; cut < text.length; cut++) {
      const tree = parse(text.slice(0, cut));
      assert.ok(
        tree.diagnostics.some((d) => d.severity === 'error'),
        `cut at ${cut}`,
      );
    }
    const half = parse(text.slice(0, text.indexOf('<variant')));
    assert.deepEqual(outline(half), [
      'Home <https://ex.org/>',
      '  G',
      '    A <https://ex.org/nav/a>',
    ]);
    assert.ok(codes(half).includes('truncated'));
  });
});
