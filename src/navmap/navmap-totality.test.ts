// Totality: hostile input never makes parseNavmap or discoverNavmap throw or hang, and what
// comes out is bounded (nodes by maxNodes, diagnostics by the per-code cap). "No hang" is
// this file finishing: every case below runs to the end, none is timed. Then the classic
// attacks on XML readers (XXE, billion laughs, deep nesting, reference webs, truncation).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { discoverNavmap } from './discover-navmap.ts';
import { parseOptHeader } from './internal/opt-header.ts';
import { NAVMAP_NS } from './navmap-names.ts';
import { parseNavmap } from './parse-navmap.ts';
import { renderNavmap } from './render-navmap.ts';
import { codes, outline } from './test-support/test-outline.ts';
import type { NavmapNode, NavmapTree } from './types.ts';

const URL_ = 'https://ex.org/nav/map.xml';
const MAX_NODES = 2_000;
/** At most 100 diagnostics per code, and one more saying that the rest were left out. */
const MAX_PER_CODE = 101;

function nodes(list: readonly NavmapNode[]): number {
  return list.reduce((n, node) => n + 1 + nodes(node.children), 0);
}

/** Parses, and checks what any tree must be: plain data, bounded, renderable. */
function checkedParse(input: Uint8Array | string, charset?: string): NavmapTree {
  const tree = parseNavmap(input, {
    url: URL_,
    maxNodes: MAX_NODES,
    ...(charset === undefined ? {} : { charset }),
  });
  assert.deepEqual(JSON.parse(JSON.stringify(tree)), tree);
  assert.ok(nodes(tree.root?.children ?? []) <= MAX_NODES);
  const perCode = new Map<string, number>();
  for (const d of tree.diagnostics) perCode.set(d.code, (perCode.get(d.code) ?? 0) + 1);
  for (const [code, count] of perCode) assert.ok(count <= MAX_PER_CODE, `${code}: ${count}`);
  for (const format of ['text', 'json', 'html'] as const) {
    assert.equal(typeof renderNavmap(tree, format), 'string');
  }
  return tree;
}

const PIECES = [
  `<sitemap xmlns="${NAVMAP_NS}" xmlns:xlink="http://www.w3.org/1999/xlink">`,
  '</sitemap>',
  '<item name="a" url="b" xml:id="i" role="home">',
  '<item xml:id="j"><external xlink:href="#i"/><external xlink:href="#j"/></item>',
  '<external xlink:href="other.xml#i"/>',
  '<external url="#i"/>',
  '<group relation="sequence">',
  '</item>',
  '</group>',
  '<variant lang="de"/>',
  '<class-change elem="/x"/>',
  '<!DOCTYPE x [<!ENTITY a "&a;&a;">]>',
  '&a;&amp;&#0;&#xD800;&#x1b;&bogus;',
  '<![CDATA[',
  '<?xml version="1.0" encoding="utf-16"?>',
  '\u0000\ufeff\ud800\udfff',
  ` xml:base="http://[x" baseurl="../../../../"`,
  `<n:item xmlns:n="${NAVMAP_NS}" name="\u009b2J">`,
  `<item name="${'x'.repeat(5_000)}" url="${'%'.repeat(2_000)}">`,
  '<image>text</image><style>',
  '<',
  '"',
  '>',
];

const anyString = fc
  .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 200 })
  .map((units) => String.fromCharCode(...units));

const markup = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((p) => p.join(''));

function utf16(text: string, littleEndian: boolean, bom: boolean): Uint8Array {
  const out = new Uint8Array((bom ? 2 : 0) + text.length * 2);
  const view = new DataView(out.buffer);
  if (bom) view.setUint16(0, 0xfeff, littleEndian);
  for (let i = 0; i < text.length; i++) {
    view.setUint16((bom ? 2 : 0) + 2 * i, text.charCodeAt(i), littleEndian);
  }
  return out;
}

const input: fc.Arbitrary<Uint8Array | string> = fc.oneof(
  fc.uint8Array({ maxLength: 400 }),
  markup,
  anyString,
  markup.map((text) => new TextEncoder().encode(text)),
  // UTF-16 in either order, with or without a BOM, possibly cut in the middle of a unit.
  fc.tuple(markup, fc.boolean(), fc.boolean(), fc.nat(3)).map(([text, le, bom, cut]) => {
    const bytes = utf16(text, le, bom);
    return bytes.subarray(0, Math.max(0, bytes.length - cut));
  }),
);

const charset = fc.constantFrom(
  undefined,
  'utf-8',
  'UTF-16',
  'utf-16be',
  'iso-8859-1',
  'shift_jis',
  'x-bogus',
  '',
);

describe('parseNavmap is total', () => {
  test('any bytes or string, any charset: a bounded, JSON-serialisable tree, never a throw', () => {
    fc.assert(
      fc.property(input, charset, (value, label) => {
        checkedParse(value, label);
      }),
      { numRuns: 1_500 },
    );
  });

  // Each with whether it is broken (and must say so) or merely unusual (and must read as-is).
  const HOSTILE: readonly [string, () => Uint8Array | string, boolean][] = [
    [
      '10,000-deep nesting in UTF-16',
      () => utf16(`<sitemap xmlns="${NAVMAP_NS}">${'<item name="d">'.repeat(10_000)}`, true, true),
      true,
    ],
    [
      'a 4 MB attribute value',
      () => `<sitemap xmlns="${NAVMAP_NS}" lang="${'x'.repeat(4e6)}"/>`,
      false,
    ],
    ['100,000 NUL bytes', () => new Uint8Array(100_000), true],
    ['100,000 bytes of 0xFF', () => new Uint8Array(100_000).fill(0xff), true],
    [
      'a BOM and then an odd number of bytes',
      () => Uint8Array.of(0xff, 0xfe, 0x3c, 0x00, 0x73),
      true,
    ],
    [
      'lone surrogates everywhere',
      () =>
        `<sitemap xmlns="${NAVMAP_NS}" xml:base="\ud800/"><item name="\udc00" url="\ud800" role="\udfff"/></sitemap>`,
      false,
    ],
    [
      '50,000 unknown elements, each a diagnostic',
      () => `<sitemap xmlns="${NAVMAP_NS}">${'<bogus/><item url="http://[x"/>'.repeat(50_000)}`,
      true,
    ],
  ];
  for (const [name, make, broken] of HOSTILE) {
    test(name, () => {
      const tree = checkedParse(make());
      const errors = tree.diagnostics.filter((d) => d.severity !== 'info');
      if (broken) assert.ok(errors.length > 0, 'the damage is reported');
      else assert.deepEqual(errors, []);
    });
  }

  test('past 100 diagnostics of a code, one more says the rest were left out', () => {
    const tree = checkedParse(
      `<sitemap xmlns="${NAVMAP_NS}">${'<bogus/><item url="http://[x" xml:base="http://[y"/>'.repeat(500)}</sitemap>`,
    );
    // Two from the walk, one from the document reader.
    for (const code of ['unknown-element', 'invalid-url', 'invalid-base']) {
      const listed = tree.diagnostics.filter((d) => d.code === code);
      assert.equal(listed.length, 101, code);
      assert.match(listed[100]?.message ?? '', /more .* problems follow; only the first 100/);
    }
  });
});

describe('discoverNavmap is total', () => {
  const headerName = fc.constantFrom(
    'Opt',
    'opt',
    '42-Location',
    '42-location',
    'X-Standard-Sitemap-Location',
    'Content-Type',
    'x-other',
  );
  const headerValue = fc.oneof(
    anyString,
    fc.constantFrom(
      `"${NAVMAP_NS}"; ns=42`,
      `"${NAVMAP_NS}; ns=42`,
      `${NAVMAP_NS};ns="42`,
      '; ; ,,"\\',
      'text/html; charset=utf-16',
      'text/html; charset=x-bogus',
      'application/xhtml+xml',
      'http://[bad',
      '',
    ),
  );
  const html = fc
    .array(
      fc.constantFrom(
        `<link rel="schema.nav" href="${NAVMAP_NS}">`,
        '<link rel="nav.location" href="map.xml">',
        '<link rel="standard-sitemap" href="http://[x">',
        `<meta name="schema.m" content="${NAVMAP_NS}">`,
        '<base href="http://[bad/">',
        '<base href="../../">',
        '<template><svg><math>',
        '</template></svg>',
        '<link rel="',
        '\u0000\ud800',
      ),
      { maxLength: 20 },
    )
    .map((p) => p.join(''));
  const body = fc.oneof(
    fc.constant(undefined),
    fc.uint8Array({ maxLength: 300 }),
    anyString,
    html,
    html.map((text) => new TextEncoder().encode(text)),
  );

  test('any headers and body: null or an absolute URL named by a known step', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(headerName, headerValue), { maxLength: 8 }),
        body,
        async (headers, pageBody) => {
          const page = {
            url: 'https://ex.org/docs/p.html',
            headers,
            ...(pageBody === undefined ? {} : { body: pageBody }),
          };
          const found = await discoverNavmap(page);
          if (found === null) return;
          assert.ok(URL.canParse(found.url), found.url);
          assert.ok(['opt-header', 'legacy-header', 'link', 'legacy-link'].includes(found.via));
        },
      ),
      { numRuns: 1_500 },
    );
  });

  test('parseOptHeader reads any string without throwing, every URI non-empty', () => {
    fc.assert(
      fc.property(fc.oneof(anyString, headerValue), (value) => {
        for (const declaration of parseOptHeader(value)) {
          assert.ok(declaration.uri.length > 0);
          assert.ok(declaration.ns === null || /^[0-9]{2,}$/.test(declaration.ns));
        }
      }),
      { numRuns: 2_000 },
    );
  });
});

/** A document: the sitemap root with the namespaces, `body` inside. */
function doc(body: string): string {
  return `<sitemap xmlns="${NAVMAP_NS}" xmlns:xlink="http://www.w3.org/1999/xlink">${body}</sitemap>`;
}

const parse = (text: string) => checkedParse(text);

describe('parseNavmap: hostile documents', () => {
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
