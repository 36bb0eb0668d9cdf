// Real-world sitemap forms the reader used to lose: multi-member gzip, an RSS item whose only
// address is its permalink <guid>, a document cut short after an entry's <loc> closed, and a
// document with an internal DTD. Each case is fed whole, byte by byte and at random splits,
// through the push parser (plain input) and the streaming reader, with the same result.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { parseNavmap } from '../navmap/index.ts';
import { parseSitemap, readSitemap } from './index.ts';
import {
  codes,
  feedings,
  type Outcome,
  pushParse,
  randomSplit,
  streamParse,
} from './test-support/feedings.ts';

const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const bytesOf = (text: string): Uint8Array => new TextEncoder().encode(text);
const urlset = (body: string): string => `<urlset ${NS}>${body}</urlset>`;
const url = (loc: string, more = ''): string => `<url><loc>${loc}</loc>${more}</url>\n`;
const concat = (...parts: Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(parts));

interface FormCase {
  readonly name: string;
  readonly input: Uint8Array;
  readonly locs: readonly string[];
  /** Codes that must be among the diagnostics. */
  readonly codes?: readonly string[];
  /** Codes that must not be. */
  readonly absent?: readonly string[];
  /** Checked further on the whole-input outcome. */
  readonly also?: (outcome: Outcome) => void;
}

/** Every feeding gives the same outcome, and that outcome is the case's. */
async function checkCase(c: FormCase): Promise<void> {
  const gzipped = c.input[0] === 0x1f && c.input[1] === 0x8b;
  const whole = await streamParse([c.input]);
  assert.deepEqual(whole.locs, c.locs, 'locs');
  for (const code of c.codes ?? [])
    assert.ok(codes(whole).includes(code), `has ${code}: ${codes(whole)}`);
  for (const code of c.absent ?? [])
    assert.ok(!codes(whole).includes(code), `no ${code}: ${codes(whole)}`);
  c.also?.(whole);
  for (const [how, pieces] of feedings(c.input)) {
    assert.deepEqual(await streamParse(pieces), whole, `streamed, ${how}`);
    if (!gzipped) assert.deepEqual(pushParse(pieces), whole, `pushed, ${how}`);
  }
}

const DOC = urlset(
  `${url('https://a.example/1')}${url('https://a.example/2')}${url('https://a.example/3')}`,
);
const DOC_LOCS = ['https://a.example/1', 'https://a.example/2', 'https://a.example/3'];
/** `cat a.gz b.gz`, the document split at `at`. */
const members = (text: string, ...at: number[]): Uint8Array => {
  const cuts = [0, ...at, text.length];
  return concat(...cuts.slice(1).map((end, k) => gzipSync(text.slice(cuts[k], end))));
};

const GZIP_CASES: FormCase[] = [
  {
    name: 'two members, split inside an entry',
    input: members(DOC, DOC.indexOf('/2<') - 4),
    locs: DOC_LOCS,
    absent: ['gzip-error', 'truncated'],
  },
  {
    name: 'three members, one of them empty',
    input: members(DOC, 20, 20, DOC.indexOf('</urlset>')),
    locs: DOC_LOCS,
    absent: ['gzip-error'],
  },
  {
    name: 'two members with zero padding after them (read as the end)',
    input: concat(members(DOC, 50), new Uint8Array(512)),
    locs: DOC_LOCS,
    absent: ['gzip-error', 'gzip-trailing-data'],
  },
  {
    name: 'bytes that are not gzip after the last member: kept out, reported',
    input: concat(members(DOC, 50), bytesOf('<html>junk</html>')),
    locs: DOC_LOCS,
    codes: ['gzip-trailing-data'],
    absent: ['gzip-error'],
  },
  {
    name: 'a second member cut short: the first member is kept',
    input: (() => {
      const at = DOC.indexOf('<url><loc>https://a.example/3');
      return members(DOC, at).subarray(0, gzipSync(DOC.slice(0, at)).length + 14);
    })(),
    locs: ['https://a.example/1', 'https://a.example/2'],
    codes: ['gzip-error'],
  },
  {
    // Inflated bytes are handed on as they come, before the trailer can be checked: what
    // was read before the error is kept, as for any broken gzip.
    name: 'a member whose CRC does not match',
    input: (() => {
      const bytes = members(DOC, 100);
      const first = gzipSync(DOC.slice(0, 100)).length;
      bytes[first - 8] = (bytes[first - 8] as number) ^ 0xff;
      return bytes;
    })(),
    locs: ['https://a.example/1'],
    codes: ['gzip-error'],
  },
];

describe('gzip: every member of a multi-member file is read', () => {
  for (const c of GZIP_CASES) test(c.name, () => checkCase(c));

  test('the member boundary at every byte of the input, in two chunks', async () => {
    const bytes = members(DOC, DOC.indexOf('https://a.example/2'));
    for (let i = 0; i <= bytes.length; i++) {
      const outcome = await streamParse([bytes.subarray(0, i), bytes.subarray(i)]);
      assert.deepEqual(outcome.locs, DOC_LOCS, `split at ${i}`);
    }
  });

  test('gzip headers with every optional field (FEXTRA, FNAME, FCOMMENT, FHCRC)', async () => {
    const first = gzipSync(DOC.slice(0, 70));
    // Flags 0x1e, then: XLEN 3 + 3 bytes, a name, a comment, a header CRC (not checked).
    const header = [0x1f, 0x8b, 8, 0x1e, 0, 0, 0, 0, 0, 0xff, 3, 0, 1, 2, 3];
    const fields = [...bytesOf('name.xml'), 0, ...bytesOf('a comment'), 0, 0xab, 0xcd];
    const second = concat(
      new Uint8Array([...header, ...fields]),
      gzipSync(DOC.slice(70)).subarray(10),
    );
    await checkCase({ name: 'optional fields', input: concat(first, second), locs: DOC_LOCS });
  });

  test('over HTTP, as a .gz body and as Content-Encoding: gzip', async () => {
    const body = members(DOC, 90);
    const server = createServer((request, response) => {
      response.writeHead(
        200,
        request.url === '/ce'
          ? { 'content-encoding': 'gzip' }
          : { 'content-type': 'application/gzip' },
      );
      // Written in pieces, so the members arrive split across chunks.
      for (let at = 0; at < body.length; at += 17) response.write(body.subarray(at, at + 17));
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      for (const path of ['/gz', '/ce']) {
        const response = await fetch(`http://127.0.0.1:${port}${path}`);
        const { entries } = await readSitemap(response.body as ReadableStream<Uint8Array>);
        assert.deepEqual(
          entries.map((e) => e.loc),
          DOC_LOCS,
          path,
        );
      }
    } finally {
      server.close();
    }
  });
});

const rss = (items: string): string =>
  `<?xml version="1.0"?>\n<rss version="2.0"><channel><title>t</title>\n${items}</channel></rss>`;

const RSS_CASES: FormCase[] = [
  {
    name: 'a permalink <guid> and no <link> gives the address',
    input: bytesOf(rss('<item><title>a</title><guid>https://a.example/post</guid></item>\n')),
    locs: ['https://a.example/post'],
    absent: ['missing-loc'],
  },
  {
    name: 'isPermaLink="true", in any case, with whitespace and CDATA',
    input: bytesOf(
      rss(
        '<item><guid isPermaLink="true">\n  https://a.example/1  \n</guid></item>\n' +
          '<item><guid ISPERMALINK="TRUE"><![CDATA[https://a.example/2]]></guid></item>\n',
      ),
    ),
    locs: ['https://a.example/1', 'https://a.example/2'],
  },
  {
    name: 'isPermaLink="false" is not an address',
    input: bytesOf(rss('<item><guid isPermaLink="false">https://a.example/id</guid></item>\n')),
    locs: [],
    codes: ['missing-loc'],
  },
  {
    name: 'a permalink <guid> that is not an http(s) URL is not an address',
    input: bytesOf(
      rss(
        '<item><guid>urn:uuid:1225c695</guid></item>\n<item><guid>/relative/post</guid></item>\n',
      ),
    ),
    locs: [],
    codes: ['missing-loc'],
  },
  {
    name: '<link> wins over <guid>, before or after it',
    input: bytesOf(
      rss(
        '<item><guid>https://a.example/g1</guid><link>https://a.example/l1</link></item>\n' +
          '<item><link>https://a.example/l2</link><guid>https://a.example/g2</guid></item>\n',
      ),
    ),
    locs: ['https://a.example/l1', 'https://a.example/l2'],
  },
  {
    name: 'a <guid> outside RSS (in a URL set) is nothing',
    input: bytesOf(urlset('<url><guid>https://a.example/g</guid></url>')),
    locs: [],
    codes: ['missing-loc'],
  },
];

describe('RSS: an item with a permalink <guid> and no <link>', () => {
  for (const c of RSS_CASES) test(c.name, () => checkCase(c));
});

const truncatedLine = (outcome: Outcome): number | undefined =>
  outcome.diagnostics.find((d) => d.code === 'truncated')?.line;

const CUT_CASES: FormCase[] = [
  {
    name: 'cut after the last entry’s <loc> closed: kept, without what was cut',
    input: bytesOf(
      `<urlset ${NS}>\n${url('https://a.example/1', '<lastmod>2024-01-01</lastmod>')}<url><loc>https://a.example/2</loc><lastmod>2024-0`,
    ),
    locs: ['https://a.example/1', 'https://a.example/2'],
    codes: ['truncated'],
    also: (outcome) => {
      assert.equal(outcome.entries[1]?.lastmod, undefined);
      assert.equal(truncatedLine(outcome), 3);
    },
  },
  {
    name: 'cut right after </loc>',
    input: bytesOf(
      `<urlset ${NS}>${url('https://a.example/1')}<url><loc>https://a.example/2</loc>`,
    ),
    locs: ['https://a.example/1', 'https://a.example/2'],
    codes: ['truncated'],
  },
  {
    name: 'cut after the closed fields of an entry with a half-written extension',
    input: bytesOf(
      `<urlset ${NS} xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><url><loc>https://a.example/1</loc><lastmod>2024-02-03</lastmod><image:image><image:loc>https://a.example/i.png</image:loc>`,
    ),
    locs: ['https://a.example/1'],
    also: (outcome) => {
      assert.deepEqual(outcome.entries[0], { loc: 'https://a.example/1', lastmod: '2024-02-03' });
    },
  },
  {
    name: 'cut inside the <loc>: that entry is dropped (its address may be half of one)',
    input: bytesOf(`<urlset ${NS}>${url('https://a.example/1')}<url><loc>https://a.example/22`),
    locs: ['https://a.example/1'],
    codes: ['truncated'],
  },
  {
    name: 'cut inside </loc>: dropped as well',
    input: bytesOf(`<urlset ${NS}>${url('https://a.example/1')}<url><loc>https://a.example/2</lo`),
    locs: ['https://a.example/1'],
    codes: ['truncated'],
  },
  {
    name: 'an index entry cut after its <loc>',
    input: bytesOf(
      `<sitemapindex ${NS}><sitemap><loc>https://a.example/s1.xml</loc></sitemap><sitemap><loc>https://a.example/s2.xml</loc><lastmod>20`,
    ),
    locs: ['https://a.example/s1.xml', 'https://a.example/s2.xml'],
    codes: ['truncated'],
  },
  {
    name: 'an RSS item cut after its <link>, and one after its permalink <guid>',
    input: bytesOf(`<rss><channel><item><link>https://a.example/1</link><pubDate>Thu, 17 Dec`),
    locs: ['https://a.example/1'],
    codes: ['truncated'],
  },
  {
    name: 'an RSS item cut after its permalink <guid>',
    input: bytesOf('<rss><channel><item><guid>https://a.example/g</guid><title>x'),
    locs: ['https://a.example/g'],
    codes: ['truncated'],
  },
  {
    name: 'an Atom entry cut after its link',
    input: bytesOf(
      '<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="https://a.example/e"/><updated>2024',
    ),
    locs: ['https://a.example/e'],
    codes: ['truncated'],
  },
];

describe('a document cut short keeps an entry whose <loc> was complete', () => {
  for (const c of CUT_CASES) test(c.name, () => checkCase(c));

  test('cut at every byte: exactly the entries whose </loc> was read, never half a URL', () => {
    const doc = bytesOf(
      `<urlset ${NS}>\n${url('https://a.example/one', '<lastmod>2024-01-01</lastmod>')}${url('https://a.example/two')}${url('https://a.example/three')}</urlset>`,
    );
    const text = new TextDecoder().decode(doc);
    const ends = ['one', 'two', 'three'].map(
      (name) => text.indexOf(`${name}</loc>`) + name.length + 6,
    );
    for (let cut = 0; cut <= doc.length; cut++) {
      const outcome = pushParse(randomSplit(doc.subarray(0, cut), cut, 9));
      const expected = ['one', 'two', 'three'].filter((_, k) => (ends[k] as number) <= cut);
      assert.deepEqual(
        outcome.locs,
        expected.map((name) => `https://a.example/${name}`),
        `cut at ${cut}`,
      );
    }
  });
});

const XXE = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE urlset [
  <!ENTITY xxe SYSTEM "file:///etc/passwd">
]>
<urlset ${NS}>
  <url><loc>https://example.com/&xxe;</loc></url>
  <url><loc>https://example.com/safe</loc></url>
</urlset>`;

function billionLaughs(root: string): string {
  const entities = ['<!ENTITY lol "lol">'];
  for (let i = 1; i <= 9; i++)
    entities.push(`<!ENTITY lol${i} "${`&lol${i - 1 || ''};`.repeat(10)}">`);
  return `<!DOCTYPE ${root} [\n${entities.join('\n')}\n]>\n`;
}

const DTD_CASES: FormCase[] = [
  {
    name: 'XXE: reported with its line, never read, the entity reference left as written',
    input: bytesOf(XXE),
    locs: ['https://example.com/&xxe;', 'https://example.com/safe'],
    codes: ['dtd-ignored'],
    also: (outcome) => {
      const dtd = outcome.diagnostics.find((d) => d.code === 'dtd-ignored');
      assert.equal(dtd?.line, 2);
      assert.equal(dtd?.severity, 'warning');
      assert.doesNotMatch(JSON.stringify(outcome), /root:/);
    },
  },
  {
    name: 'billion laughs: nothing is expanded',
    input: bytesOf(`${billionLaughs('urlset')}${urlset(url('https://a.example/&lol9;'))}`),
    locs: ['https://a.example/&lol9;'],
    codes: ['dtd-ignored'],
    also: (outcome) => assert.ok(JSON.stringify(outcome).length < 2_000),
  },
  {
    name: 'markup inside entity values is not read as entries',
    input: bytesOf(
      `<!DOCTYPE urlset [<!ENTITY e "<url><loc>https://evil.example/</loc></url>"> <!-- ]> --> <!ATTLIST urlset a CDATA '>'>]>\n${urlset(url('https://a.example/ok'))}`,
    ),
    locs: ['https://a.example/ok'],
    codes: ['dtd-ignored'],
    absent: ['not-a-sitemap'],
  },
  {
    name: 'a DOCTYPE without internal subset',
    input: bytesOf(`<!DOCTYPE urlset SYSTEM "http://127.0.0.1:9/urlset.dtd">${DOC}`),
    locs: DOC_LOCS,
    codes: ['dtd-ignored'],
  },
  {
    name: 'an internal subset never closed: the root is still read',
    input: bytesOf(`<!DOCTYPE urlset [ <!ENTITY a "b">\n${DOC}`),
    locs: DOC_LOCS,
    codes: ['dtd-ignored'],
  },
  {
    name: 'an RSS feed with a DTD',
    input: bytesOf(
      `${billionLaughs('rss')}${rss('<item><link>https://a.example/&lol;</link></item>')}`,
    ),
    locs: ['https://a.example/&lol;'],
    codes: ['dtd-ignored'],
  },
];

describe('a document with an internal DTD is read, the DTD reported and never expanded', () => {
  for (const c of DTD_CASES) test(c.name, () => checkCase(c));

  test('an external DTD or entity is never fetched', async () => {
    let requests = 0;
    const server = createServer((_request, response) => {
      requests++;
      response.end('<!ENTITY x "fetched">');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const doc = `<!DOCTYPE urlset SYSTEM "http://127.0.0.1:${port}/a.dtd" [<!ENTITY % p SYSTEM "http://127.0.0.1:${port}/p.dtd"> %p; <!ENTITY x SYSTEM "http://127.0.0.1:${port}/x">]>${urlset(url('https://a.example/&x;'))}`;
      const { entries } = await readSitemap(doc);
      assert.deepEqual(
        entries.map((e) => e.loc),
        ['https://a.example/&x;'],
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(requests, 0);
    } finally {
      server.close();
    }
  });

  test('the sitemap and navmap readers treat the same DTD the same way', async () => {
    const dtd = billionLaughs('sitemap').replace(
      '\n]>',
      '\n<!ENTITY xxe SYSTEM "file:///etc/passwd">\n]>',
    );
    const sitemap = await readSitemap(`${dtd}${urlset(url('https://a.example/&xxe;'))}`);
    const navmap = parseNavmap(
      `${dtd}<sitemap xmlns="http://standard-sitemap.org/2007/ns"><item name="&xxe;" url="https://a.example/"/></sitemap>`,
      { url: 'https://a.example/map.xml' },
    );
    const sitemapDtd = sitemap.diagnostics.find((d) => d.code === 'dtd-ignored');
    const navmapDtd = navmap.diagnostics.find((d) => d.code === 'dtd-ignored');
    assert.ok(sitemapDtd !== undefined && navmapDtd !== undefined);
    assert.equal(sitemapDtd.severity, navmapDtd.severity);
    assert.equal(sitemapDtd.line, navmapDtd.line);
    // Both keep the entity reference as written.
    assert.equal(sitemap.entries[0]?.loc, 'https://a.example/&xxe;');
    assert.equal(navmap.root?.children[0]?.label, '&xxe;');
  });
});

describe('an HTTP charset the bytes cannot be in', () => {
  test('the bytes decide (XML 1.0 Appendix F), with a warning', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>${urlset(url('https://example.com/é'))}`;
    const CASES: [bytes: Uint8Array, contentType: string][] = [
      [bytesOf(xml), 'text/xml; charset=utf-16'],
      [
        new Uint8Array(Buffer.from(xml.replace('UTF-8', 'UTF-16'), 'utf16le')),
        'text/xml; charset=iso-8859-1',
      ],
      [
        new Uint8Array(Buffer.from(xml.replace('UTF-8', 'UTF-16'), 'utf16le').swap16()),
        'text/xml; charset=utf-8',
      ],
    ];
    for (const [bytes, contentType] of CASES) {
      const reading = parseSitemap(bytes, { contentType });
      const locs: string[] = [];
      for await (const entry of reading) locs.push(entry.loc);
      assert.deepEqual(locs, ['https://example.com/%C3%A9'], contentType);
      assert.ok(
        reading.diagnostics.some((d) => d.code === 'encoding-mismatch'),
        contentType,
      );
    }
  });
});
