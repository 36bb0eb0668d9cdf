import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isWaymarkError } from '../shared/waymark-error.ts';
import { escapeXmlAttribute, escapeXmlText } from '../shared/xml/xml-escape.ts';
import {
  formatSitemapIndex,
  formatUrlset,
  MAX_SITEMAP_URLS,
  SitemapIndexWriter,
  type UrlsetOptions,
  UrlsetWriter,
} from './format-sitemap.ts';
import type { SitemapUrl, SitemapVideo } from './types.ts';

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';

/** The `<url>` elements of a compact document, one per line. */
function urlLines(xml: string): string[] {
  return xml.split('\n').filter((line) => line.startsWith('<url>'));
}

function one(entry: SitemapUrl, options: UrlsetOptions = {}): string {
  const [line] = urlLines(formatUrlset([entry], options));
  assert.ok(line !== undefined);
  return line;
}

function throwsInvalid(run: () => unknown, pattern: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(isWaymarkError(error), String(error));
    assert.equal(error.code, 'invalid-argument');
    assert.match(error.message, pattern);
    return true;
  });
}

const VIDEO: SitemapVideo = {
  thumbnailLoc: 'https://example.com/t.jpg',
  title: 'T',
  description: 'D',
  contentLoc: 'https://example.com/v.mp4',
};

describe('formatUrlset output', () => {
  test('a minimal document, compact', () => {
    assert.equal(
      formatUrlset([
        { loc: 'https://example.com/' },
        { loc: 'https://example.com/a', lastmod: '2024-05-01' },
      ]),
      `${HEAD}<urlset ${NS}>\n` +
        '<url><loc>https://example.com/</loc></url>\n' +
        '<url><loc>https://example.com/a</loc><lastmod>2024-05-01</lastmod></url>\n' +
        '</urlset>\n',
    );
  });

  test('pretty output indents nested elements and adds no whitespace to text', () => {
    assert.equal(
      formatUrlset(
        [
          {
            loc: 'https://example.com/',
            images: [{ loc: 'https://example.com/i.png', caption: ' c ' }],
          },
        ],
        {
          pretty: true,
        },
      ),
      `${HEAD}<urlset ${NS} xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n` +
        '  <url>\n' +
        '    <loc>https://example.com/</loc>\n' +
        '    <image:image>\n' +
        '      <image:loc>https://example.com/i.png</image:loc>\n' +
        '      <image:caption> c </image:caption>\n' +
        '    </image:image>\n' +
        '  </url>\n' +
        '</urlset>\n',
    );
  });

  test('an empty set is an empty urlset', () => {
    assert.equal(formatUrlset([]), `${HEAD}<urlset ${NS}>\n</urlset>\n`);
  });

  test('changefreq and priority are written only when asked for', () => {
    const entry: SitemapUrl = { loc: 'https://example.com/', changefreq: 'daily', priority: 0.5 };
    assert.equal(one(entry), '<url><loc>https://example.com/</loc></url>');
    assert.equal(
      one(entry, { includeChangefreq: true, includePriority: true }),
      '<url><loc>https://example.com/</loc><changefreq>daily</changefreq><priority>0.5</priority></url>',
    );
  });

  const PRIORITIES: [number, string][] = [
    [0, '0.0'],
    [1, '1.0'],
    [0.5, '0.5'],
    [0.25, '0.25'],
    [1e-7, '0.0000001'],
  ];
  for (const [priority, written] of PRIORITIES) {
    test(`priority ${priority} is written as ${written}`, () => {
      assert.match(
        one({ loc: 'https://example.com/', priority }, { includePriority: true }),
        new RegExp(`<priority>${written}</priority>`),
      );
    });
  }
});

describe('namespaces', () => {
  const CASES: {
    name: string;
    entries: SitemapUrl[];
    options?: UrlsetOptions;
    declared: string[];
  }[] = [
    { name: 'none used', entries: [{ loc: 'https://example.com/' }], declared: [] },
    {
      name: 'scanned: only those used, in a fixed order',
      entries: [
        {
          loc: 'https://example.com/a',
          news: {
            publication: { name: 'N', language: 'en' },
            publicationDate: '2024-01-01',
            title: 'T',
          },
        },
        {
          loc: 'https://example.com/b',
          alternates: [{ hreflang: 'de', href: 'https://example.com/de' }],
        },
        { loc: 'https://example.com/c', images: [] },
      ],
      declared: ['news', 'xhtml'],
    },
    {
      name: 'named in options, even if unused',
      entries: [{ loc: 'https://example.com/' }],
      options: { extensions: ['xhtml', 'image'] },
      declared: ['image', 'xhtml'],
    },
  ];
  for (const { name, entries, options, declared } of CASES) {
    test(name, () => {
      const root = formatUrlset(entries, options).split('\n')[1] ?? '';
      const prefixes = [...root.matchAll(/xmlns:(\w+)=/g)].map((m) => m[1]);
      assert.deepEqual(prefixes, declared);
    });
  }

  test('an entry using an undeclared extension is refused', () => {
    throwsInvalid(
      () =>
        formatUrlset([{ loc: 'https://example.com/', videos: [VIDEO] }], { extensions: ['image'] }),
      /"https:\/\/example.com\/".*video extension.*add 'video' to the extensions option/,
    );
    const writer = new UrlsetWriter();
    writer.open();
    throwsInvalid(
      () =>
        writer.write({ loc: 'https://example.com/', images: [{ loc: 'https://example.com/i' }] }),
      /image extension/,
    );
  });

  test('an unknown extension name is refused', () => {
    throwsInvalid(
      () => new UrlsetWriter({ extensions: ['mobile' as 'image'] }),
      /unknown extension "mobile"/,
    );
  });
});

// Every field that carries caller text, with all five XML specials in it.
const SPECIALS = `&<>"'`;
const ESCAPED = '&amp;&lt;&gt;&quot;&apos;';

describe('escaping', () => {
  const FIELDS: { name: string; entry: SitemapUrl }[] = [
    {
      name: 'image caption',
      entry: {
        loc: 'https://example.com/',
        images: [{ loc: 'https://example.com/i', caption: SPECIALS }],
      },
    },
    {
      name: 'image title',
      entry: {
        loc: 'https://example.com/',
        images: [{ loc: 'https://example.com/i', title: SPECIALS }],
      },
    },
    {
      name: 'image geoLocation',
      entry: {
        loc: 'https://example.com/',
        images: [{ loc: 'https://example.com/i', geoLocation: SPECIALS }],
      },
    },
    {
      name: 'video title',
      entry: { loc: 'https://example.com/', videos: [{ ...VIDEO, title: SPECIALS }] },
    },
    {
      name: 'video description',
      entry: { loc: 'https://example.com/', videos: [{ ...VIDEO, description: SPECIALS }] },
    },
    {
      name: 'video tag',
      entry: { loc: 'https://example.com/', videos: [{ ...VIDEO, tags: [SPECIALS] }] },
    },
    {
      name: 'video uploader name',
      entry: { loc: 'https://example.com/', videos: [{ ...VIDEO, uploader: { name: SPECIALS } }] },
    },
    {
      name: 'news publication name',
      entry: {
        loc: 'https://example.com/',
        news: {
          publication: { name: SPECIALS, language: 'en' },
          publicationDate: '2024-01-01',
          title: 'T',
        },
      },
    },
    {
      name: 'news title',
      entry: {
        loc: 'https://example.com/',
        news: {
          publication: { name: 'N', language: 'en' },
          publicationDate: '2024-01-01',
          title: SPECIALS,
        },
      },
    },
  ];
  for (const { name, entry } of FIELDS) {
    test(`${name}: & < > " ' become references`, () => {
      const line = one(entry);
      assert.ok(line.includes(`>${ESCAPED}</`), line);
    });
  }

  // URLs keep what `new URL().href` leaves unencoded: & and ' in the query, ' in the path.
  const URL_FIELDS: { name: string; entry: (url: string) => SitemapUrl }[] = [
    { name: 'loc', entry: (url) => ({ loc: url }) },
    {
      name: 'alternate href (attribute)',
      entry: (url) => ({
        loc: 'https://example.com/',
        alternates: [{ hreflang: 'de', href: url }],
      }),
    },
    {
      name: 'image loc',
      entry: (url) => ({ loc: 'https://example.com/', images: [{ loc: url }] }),
    },
    {
      name: 'image license',
      entry: (url) => ({
        loc: 'https://example.com/',
        images: [{ loc: 'https://example.com/i', license: url }],
      }),
    },
    {
      name: 'video thumbnailLoc',
      entry: (url) => ({ loc: 'https://example.com/', videos: [{ ...VIDEO, thumbnailLoc: url }] }),
    },
    {
      name: 'video contentLoc',
      entry: (url) => ({ loc: 'https://example.com/', videos: [{ ...VIDEO, contentLoc: url }] }),
    },
    {
      name: 'video playerLoc',
      entry: (url) => ({ loc: 'https://example.com/', videos: [{ ...VIDEO, playerLoc: url }] }),
    },
    {
      name: 'video uploader info (attribute)',
      entry: (url) => ({
        loc: 'https://example.com/',
        videos: [{ ...VIDEO, uploader: { name: 'U', info: url } }],
      }),
    },
  ];
  for (const { name, entry } of URL_FIELDS) {
    test(`${name}: & and ' escaped, < > " percent-encoded`, () => {
      const line = one(entry(`https://example.com/it's?a=1&b=<2>"3"`));
      assert.ok(line.includes('https://example.com/it&apos;s?a=1&amp;b=%3C2%3E%223%22'), line);
    });
  }

  test('line breaks and tabs survive as references where a parser would change them', () => {
    const xml = formatUrlset([
      {
        loc: 'https://example.com/',
        images: [{ loc: 'https://example.com/i', caption: 'a\r\nb\tc' }],
      },
    ]);
    assert.ok(xml.includes('<image:caption>a&#13;\nb\tc</image:caption>'), xml);
  });

  const ESCAPES: [string, string, string][] = [
    ['all specials', `a&b<c>d"e'f`, 'a&amp;b&lt;c&gt;d&quot;e&apos;f'],
    ['CDATA end', ']]>', ']]&gt;'],
    ['line breaks and tab', '\r\n\t', '&#13;\n\t'],
    ['already escaped text is escaped again', '&amp;', '&amp;amp;'],
  ];
  for (const [name, raw, text] of ESCAPES) {
    test(`escapeXmlText: ${name}`, () => {
      assert.equal(escapeXmlText(raw), text);
    });
  }

  test('escapeXmlAttribute keeps whitespace as references', () => {
    assert.equal(
      escapeXmlAttribute(`a\tb\nc\rd "e" 'f' <&>`),
      'a&#9;b&#10;c&#13;d &quot;e&quot; &apos;f&apos; &lt;&amp;&gt;',
    );
  });

  // XML 1.0 cannot carry these at all, not even as &#x1;: the value is refused.
  const FORBIDDEN: [string, string][] = [
    ['NUL', '\u0000'],
    ['U+0001', '\u0001'],
    ['vertical tab', '\u000B'],
    ['form feed', '\u000C'],
    ['U+001F', '\u001F'],
    ['lone high surrogate', '\uD800'],
    ['lone low surrogate', '\uDC00'],
    ['U+FFFE', '\uFFFE'],
    ['U+FFFF', '\uFFFF'],
  ];
  for (const [name, char] of FORBIDDEN) {
    test(`${name} in text is refused, naming the field and the character`, () => {
      throwsInvalid(
        () =>
          formatUrlset([
            {
              loc: 'https://example.com/x',
              images: [{ loc: 'https://example.com/i', caption: `a${char}b` }],
            },
          ]),
        /"https:\/\/example.com\/x": images\[0\]\.caption has a character XML 1.0 does not allow \(U\+[0-9A-F]{4} at index 1\)/,
      );
    });
  }

  const ALLOWED = ['\u0085', '\u00A0', '\u2028', '😀', '\uE000', '\uFFFD'];
  for (const char of ALLOWED) {
    test(`U+${char.codePointAt(0)?.toString(16).toUpperCase()} is written as it is`, () => {
      assert.ok(
        one({ loc: 'https://example.com/', videos: [{ ...VIDEO, title: char }] }).includes(
          `<video:title>${char}</video:title>`,
        ),
      );
    });
  }
});

describe('loc', () => {
  const WRITTEN: [string, string, string][] = [
    ['plain', 'https://example.com/a', 'https://example.com/a'],
    ['space percent-encoded', 'https://example.com/a b', 'https://example.com/a%20b'],
    [
      'non-ASCII path percent-encoded',
      'https://example.com/ünï',
      'https://example.com/%C3%BCn%C3%AF',
    ],
    [
      'non-ASCII query percent-encoded',
      'https://example.com/?q=é',
      'https://example.com/?q=%C3%A9',
    ],
    ['IDN host in punycode', 'https://bücher.example/', 'https://xn--bcher-kva.example/'],
    [
      'scheme and host lower-cased, default port dropped',
      'HTTPS://Example.COM:443/A',
      'https://example.com/A',
    ],
    ['http allowed', 'http://example.com/', 'http://example.com/'],
    [
      'exactly 2,048 characters',
      `https://example.com/${'a'.repeat(2028)}`,
      `https://example.com/${'a'.repeat(2028)}`,
    ],
  ];
  for (const [name, loc, href] of WRITTEN) {
    test(`${name}: ${loc.slice(0, 40)}`, () => {
      assert.equal(one({ loc }), `<url><loc>${href}</loc></url>`);
    });
  }

  const REFUSED: [string, unknown, RegExp, UrlsetOptions?][] = [
    ['relative', '/a', /loc "\/a" is not an absolute URL/],
    ['no scheme', 'example.com/a', /is not an absolute URL/],
    ['ftp', 'ftp://example.com/a', /loc "ftp:\/\/example.com\/a" is not an http\(s\) URL/],
    ['mailto', 'mailto:a@example.com', /is not an http\(s\) URL/],
    [
      '2,049 characters',
      `https://example.com/${'a'.repeat(2029)}`,
      /is 2049 characters once encoded, more than 2048/,
    ],
    [
      '2,048 characters before encoding, more after',
      `https://example.com/${'é'.repeat(1000)}`,
      /is 6020 characters once encoded/,
    ],
    ['shorter than the schema minimum', 'http://a.b/', /shorter than the schema's 12 characters/],
    ['not a string', 42, /loc is not a string/],
    [
      'cross-origin',
      'https://other.example/',
      /loc "https:\/\/other.example\/" is not on origin https:\/\/example.com/,
      { origin: 'https://example.com' },
    ],
    [
      'other scheme on the origin',
      'http://example.com/',
      /is not on origin/,
      { origin: 'https://example.com/any/path' },
    ],
    [
      'other port on the origin',
      'https://example.com:8443/',
      /is not on origin/,
      { origin: 'https://example.com' },
    ],
  ];
  for (const [name, loc, pattern, options] of REFUSED) {
    test(`refused: ${name}`, () => {
      throwsInvalid(() => formatUrlset([{ loc } as SitemapUrl], options), pattern);
    });
  }

  test('same origin however it is spelled', () => {
    assert.equal(
      one({ loc: 'https://EXAMPLE.com:443/a' }, { origin: 'https://example.com/sitemap.xml' }),
      '<url><loc>https://example.com/a</loc></url>',
    );
    assert.equal(
      one({ loc: 'https://bücher.example/' }, { origin: 'https://xn--bcher-kva.example' }),
      '<url><loc>https://xn--bcher-kva.example/</loc></url>',
    );
  });

  test('an origin that is not an http(s) URL is refused', () => {
    throwsInvalid(
      () => formatUrlset([], { origin: 'example.com' }),
      /origin "example.com" is not an absolute http\(s\) URL/,
    );
  });
});

describe('lastmod', () => {
  const WRITTEN: [string, string][] = [
    ['2024-05-01', '2024-05-01'],
    ['2024-02-29', '2024-02-29'],
    ['2000-02-29', '2000-02-29'],
    ['2024-05-01T10:00:00Z', '2024-05-01T10:00:00Z'],
    ['2024-05-01T10:00:00.123Z', '2024-05-01T10:00:00.123Z'],
    ['2024-05-01T10:00Z', '2024-05-01T10:00:00Z'],
    ['2024-05-01T10:00:30+08:00', '2024-05-01T10:00:30+08:00'],
    ['2024-05-01T10:00-05:30', '2024-05-01T10:00:00-05:30'],
    ['2024-05-01T23:59:59+14:00', '2024-05-01T23:59:59+14:00'],
    ['2024-05-01t10:00:00z', '2024-05-01T10:00:00Z'],
    [new Date(Date.UTC(2024, 4, 1, 10)).toISOString(), '2024-05-01T10:00:00.000Z'],
  ];
  for (const [lastmod, written] of WRITTEN) {
    test(`${lastmod} is written as ${written}`, () => {
      assert.equal(
        one({ loc: 'https://example.com/', lastmod }),
        `<url><loc>https://example.com/</loc><lastmod>${written}</lastmod></url>`,
      );
    });
  }

  const REFUSED: [string, RegExp][] = [
    ['2024', /not a W3C Datetime with a full date/],
    ['2024-05', /not a W3C Datetime with a full date/],
    ['2024-05-01T10:00:00', /not a W3C Datetime/],
    ['2024-05-01 10:00:00Z', /not a W3C Datetime/],
    ['2024-5-1', /not a W3C Datetime/],
    ['01/05/2024', /not a W3C Datetime/],
    ['May 1, 2024', /not a W3C Datetime/],
    ['', /not a W3C Datetime/],
    ['2024-13-01', /not a calendar date/],
    ['2023-02-29', /not a calendar date/],
    ['1900-02-29', /not a calendar date/],
    ['2024-04-31', /not a calendar date/],
    ['0000-01-01', /not a calendar date/],
    ['2024-05-01T24:00:00Z', /not a time of day/],
    ['2024-05-01T10:60:00Z', /not a time of day/],
    ['2024-05-01T10:00:60Z', /not a time of day/],
    ['2024-05-01T10:00:00+15:00', /time zone outside ±14:00/],
    ['2024-05-01T10:00:00+14:30', /time zone outside ±14:00/],
    ['2024-05-01T10:00:00+05:60', /time zone outside ±14:00/],
  ];
  for (const [lastmod, pattern] of REFUSED) {
    test(`${JSON.stringify(lastmod)} is refused`, () => {
      throwsInvalid(() => formatUrlset([{ loc: 'https://example.com/', lastmod }]), pattern);
    });
  }
});

describe('field checks', () => {
  const REFUSED: [string, SitemapUrl, RegExp, UrlsetOptions?][] = [
    [
      'changefreq not in the list',
      { loc: 'https://example.com/', changefreq: 'sometimes' as 'daily' },
      /changefreq "sometimes" is not one of/,
      { includeChangefreq: true },
    ],
    [
      'priority above 1',
      { loc: 'https://example.com/', priority: 1.5 },
      /priority 1.5 is not a number from 0 to 1/,
      { includePriority: true },
    ],
    [
      'priority NaN',
      { loc: 'https://example.com/', priority: Number.NaN },
      /priority NaN/,
      { includePriority: true },
    ],
    [
      'hreflang with a space',
      {
        loc: 'https://example.com/',
        alternates: [{ hreflang: 'en gb', href: 'https://example.com/' }],
      },
      /alternates\[0\]\.hreflang "en gb" is not a language tag/,
    ],
    [
      'alternate href relative',
      { loc: 'https://example.com/', alternates: [{ hreflang: 'de', href: '/de' }] },
      /alternates\[0\]\.href "\/de" is not an absolute URL/,
    ],
    [
      'image loc ftp',
      { loc: 'https://example.com/', images: [{ loc: 'ftp://example.com/i' }] },
      /images\[0\]\.loc .* is not an http\(s\) URL/,
    ],
    [
      '1,001 images',
      {
        loc: 'https://example.com/',
        images: Array.from({ length: 1001 }, () => ({ loc: 'https://example.com/i' })),
      },
      /has 1001 images, more than 1000/,
    ],
    [
      'video without content or player',
      {
        loc: 'https://example.com/',
        videos: [{ thumbnailLoc: 'https://example.com/t', title: 'T', description: 'D' }],
      },
      /videos\[0\] has neither contentLoc nor playerLoc/,
    ],
    [
      'video title of 101 characters',
      { loc: 'https://example.com/', videos: [{ ...VIDEO, title: 'x'.repeat(101) }] },
      /videos\[0\]\.title is longer than 100 characters/,
    ],
    [
      'video description of 2,049 characters',
      { loc: 'https://example.com/', videos: [{ ...VIDEO, description: 'x'.repeat(2049) }] },
      /description is longer than 2048/,
    ],
    [
      'video duration 0',
      { loc: 'https://example.com/', videos: [{ ...VIDEO, duration: 0 }] },
      /duration 0 is not a whole number from 1 to 28800/,
    ],
    [
      'video duration 28,801',
      { loc: 'https://example.com/', videos: [{ ...VIDEO, duration: 28_801 }] },
      /duration 28801/,
    ],
    [
      'video duration 1.5',
      { loc: 'https://example.com/', videos: [{ ...VIDEO, duration: 1.5 }] },
      /duration 1.5/,
    ],
    [
      'video rating 5.1',
      { loc: 'https://example.com/', videos: [{ ...VIDEO, rating: 5.1 }] },
      /rating 5.1 is not a number from 0 to 5/,
    ],
    [
      'video view count -1',
      { loc: 'https://example.com/', videos: [{ ...VIDEO, viewCount: -1 }] },
      /viewCount -1/,
    ],
    [
      'video with 33 tags',
      {
        loc: 'https://example.com/',
        videos: [{ ...VIDEO, tags: Array.from({ length: 33 }, (_, i) => `t${i}`) }],
      },
      /has 33 tags, more than 32/,
    ],
    [
      'video publication date',
      { loc: 'https://example.com/', videos: [{ ...VIDEO, publicationDate: 'yesterday' }] },
      /videos\[0\]\.publicationDate "yesterday"/,
    ],
    [
      'video restriction lower-case',
      {
        loc: 'https://example.com/',
        videos: [{ ...VIDEO, restriction: { relationship: 'allow', countries: ['de'] } }],
      },
      /restriction\.countries\[0\] "de" is not a two-letter upper-case country code/,
    ],
    [
      'video restriction relationship',
      {
        loc: 'https://example.com/',
        videos: [{ ...VIDEO, restriction: { relationship: 'maybe' as 'allow', countries: [] } }],
      },
      /restriction.relationship "maybe"/,
    ],
    [
      'video platform',
      {
        loc: 'https://example.com/',
        videos: [{ ...VIDEO, platform: { relationship: 'allow', platforms: ['desktop'] } }],
      },
      /platform\.platforms\[0\] "desktop" is not web, mobile or tv/,
    ],
    [
      'video family friendly as text',
      {
        loc: 'https://example.com/',
        videos: [{ ...VIDEO, familyFriendly: 'yes' as unknown as boolean }],
      },
      /familyFriendly is not a boolean/,
    ],
    [
      'news language',
      {
        loc: 'https://example.com/',
        news: {
          publication: { name: 'N', language: 'en-US' },
          publicationDate: '2024-01-01',
          title: 'T',
        },
      },
      /news.publication.language "en-US" is not an ISO 639 code/,
    ],
    [
      'news date',
      {
        loc: 'https://example.com/',
        news: { publication: { name: 'N', language: 'en' }, publicationDate: '2024', title: 'T' },
      },
      /news.publicationDate "2024"/,
    ],
  ];
  for (const [name, entry, pattern, options] of REFUSED) {
    test(`refused: ${name}`, () => {
      throwsInvalid(() => formatUrlset([entry], options), pattern);
    });
  }

  test('ignored fields are not checked: changefreq and priority left out are not validated', () => {
    assert.equal(
      one({ loc: 'https://example.com/', priority: 7 }),
      '<url><loc>https://example.com/</loc></url>',
    );
  });

  test('video children follow the schema sequence, whatever the object order', () => {
    const line = one({
      loc: 'https://example.com/',
      videos: [
        {
          live: true,
          platform: { relationship: 'allow', platforms: ['web', 'tv'] },
          uploader: { name: 'U', info: 'https://example.com/u' },
          requiresSubscription: true,
          restriction: { relationship: 'deny', countries: ['US', 'CA'] },
          familyFriendly: false,
          tags: ['a', 'b'],
          publicationDate: '2024-01-01T00:00:00Z',
          viewCount: 0,
          rating: 4.5,
          expirationDate: '2030-01-01',
          duration: 60,
          playerLoc: 'https://example.com/p',
          contentLoc: 'https://example.com/c.mp4',
          description: 'D',
          title: 'T',
          thumbnailLoc: 'https://example.com/t.jpg',
        },
      ],
    });
    const names = [...line.matchAll(/<video:(\w+)/g)].map((m) => m[1]);
    assert.deepEqual(names, [
      'video',
      'thumbnail_loc',
      'title',
      'description',
      'content_loc',
      'player_loc',
      'duration',
      'expiration_date',
      'rating',
      'view_count',
      'publication_date',
      'tag',
      'tag',
      'family_friendly',
      'restriction',
      'requires_subscription',
      'uploader',
      'platform',
      'live',
    ]);
    assert.ok(line.includes('<video:restriction relationship="deny">US CA</video:restriction>'));
    assert.ok(line.includes('<video:platform relationship="allow">web tv</video:platform>'));
    assert.ok(line.includes('<video:uploader info="https://example.com/u">U</video:uploader>'));
    assert.ok(line.includes('<video:family_friendly>no</video:family_friendly>'));
    assert.ok(line.includes('<video:live>yes</video:live>'));
  });

  test('alternates are written as xhtml:link', () => {
    assert.equal(
      one({
        loc: 'https://example.com/',
        alternates: [{ hreflang: 'x-default', href: 'https://example.com/' }],
      }),
      '<url><loc>https://example.com/</loc><xhtml:link rel="alternate" hreflang="x-default" href="https://example.com/"/></url>',
    );
  });
});

describe('UrlsetWriter', () => {
  test('counts UTF-8 bytes of exactly what it hands out', () => {
    const writer = new UrlsetWriter({ extensions: ['image'], pretty: true });
    let xml = writer.open();
    for (const caption of ['ascii', 'ünïcödé', '😀 emoji', '中文']) {
      const result = writer.write({
        loc: 'https://example.com/é',
        images: [{ loc: 'https://example.com/i', caption }],
      });
      assert.ok(result.written);
      xml += result.xml;
    }
    xml += writer.close();
    assert.equal(writer.byteLength, new TextEncoder().encode(xml).length);
    assert.equal(writer.count, 4);
  });

  test('is full at maxUrls', () => {
    const writer = new UrlsetWriter({ maxUrls: 2 });
    writer.open();
    assert.equal(writer.write({ loc: 'https://example.com/1' }).written, true);
    assert.equal(writer.write({ loc: 'https://example.com/2' }).written, true);
    assert.deepEqual(writer.write({ loc: 'https://example.com/3' }), {
      written: false,
      full: 'max-urls',
    });
  });

  test('is full when the next entry plus the closing tag would pass maxBytes', () => {
    const open = new UrlsetWriter().open();
    const element = '<url><loc>https://example.com/1</loc></url>\n';
    const close = '</urlset>\n';
    const exact = open.length + 2 * element.length + close.length;
    for (const [maxBytes, fits] of [
      [exact, 2],
      [exact - 1, 1],
    ] as const) {
      const writer = new UrlsetWriter({ maxBytes });
      let xml = writer.open();
      let written = 0;
      for (let i = 0; i < 3; i++) {
        const result = writer.write({ loc: 'https://example.com/1' });
        if (!result.written) {
          assert.equal(result.full, 'max-bytes');
          break;
        }
        xml += result.xml;
        written++;
      }
      xml += writer.close();
      assert.equal(written, fits);
      assert.ok(xml.length <= maxBytes);
    }
  });

  test('an entry no empty document could hold is refused', () => {
    const writer = new UrlsetWriter({ maxBytes: 100 });
    writer.open();
    throwsInvalid(
      () => writer.write({ loc: 'https://example.com/a-long-path' }),
      /no document of at most 100 bytes can hold it/,
    );
  });

  test('steps out of order are usage errors', () => {
    const writer = new UrlsetWriter();
    assert.throws(() => writer.write({ loc: 'https://example.com/' }), { code: 'usage' });
    assert.throws(() => writer.close(), { code: 'usage' });
    writer.open();
    assert.throws(() => writer.open(), { code: 'usage' });
    writer.close();
    assert.throws(() => writer.write({ loc: 'https://example.com/' }), { code: 'usage' });
  });

  const LIMITS: [UrlsetOptions, RegExp][] = [
    [{ maxUrls: 0 }, /maxUrls 0 is not a whole number from 1 to 50000/],
    [{ maxUrls: 50_001 }, /maxUrls 50001/],
    [{ maxUrls: 1.5 }, /maxUrls 1.5/],
    [
      { maxBytes: 50 * 1024 * 1024 + 1 },
      /maxBytes 52428801 is not a whole number from 1 to 52428800/,
    ],
  ];
  for (const [options, pattern] of LIMITS) {
    test(`limits are checked: ${JSON.stringify(options)}`, () => {
      throwsInvalid(() => new UrlsetWriter(options), pattern);
    });
  }
});

describe('formatUrlset limits', () => {
  test('more entries than one document holds are refused, pointing at writeSitemaps', () => {
    const entries = Array.from({ length: 4 }, (_, i) => ({ loc: `https://example.com/${i}` }));
    assert.equal(urlLines(formatUrlset(entries.slice(0, 3), { maxUrls: 3 })).length, 3);
    throwsInvalid(
      () => formatUrlset(entries, { maxUrls: 3 }),
      /do not fit in one document of at most 3 entries; use writeSitemaps/,
    );
  });

  test(`the default limit is ${MAX_SITEMAP_URLS} entries`, () => {
    function* many(n: number): Generator<SitemapUrl> {
      for (let i = 0; i < n; i++) yield { loc: `https://example.com/${i}` };
    }
    assert.equal(urlLines(formatUrlset(many(MAX_SITEMAP_URLS))).length, MAX_SITEMAP_URLS);
    throwsInvalid(() => formatUrlset(many(MAX_SITEMAP_URLS + 1)), /at most 50000 entries/);
  });
});

describe('formatSitemapIndex', () => {
  test('writes each sitemap with its lastmod', () => {
    assert.equal(
      formatSitemapIndex([
        { loc: 'https://example.com/s-1.xml?a=1&b=2', lastmod: '2024-05-01T10:00Z' },
        { loc: 'https://example.com/s-2.xml.gz' },
      ]),
      `${HEAD}<sitemapindex ${NS}>\n` +
        '<sitemap><loc>https://example.com/s-1.xml?a=1&amp;b=2</loc><lastmod>2024-05-01T10:00:00Z</lastmod></sitemap>\n' +
        '<sitemap><loc>https://example.com/s-2.xml.gz</loc></sitemap>\n' +
        '</sitemapindex>\n',
    );
  });

  test('checks loc, origin and lastmod like a URL set', () => {
    throwsInvalid(
      () => formatSitemapIndex([{ loc: 'sitemap.xml' }]),
      /sitemap "sitemap.xml": loc "sitemap.xml" is not an absolute URL/,
    );
    throwsInvalid(
      () =>
        formatSitemapIndex([{ loc: 'https://cdn.example/s.xml' }], {
          origin: 'https://example.com',
        }),
      /not on origin/,
    );
    throwsInvalid(
      () => formatSitemapIndex([{ loc: 'https://example.com/s.xml', lastmod: 'now' }]),
      /lastmod "now"/,
    );
  });

  test('SitemapIndexWriter is full at maxUrls', () => {
    const writer = new SitemapIndexWriter({ maxUrls: 1 });
    writer.open();
    assert.equal(writer.write({ loc: 'https://example.com/1.xml' }).written, true);
    assert.deepEqual(writer.write({ loc: 'https://example.com/2.xml' }), {
      written: false,
      full: 'max-urls',
    });
  });
});

describe('values of the wrong type (as JSON input may hold) are refused, never thrown on', () => {
  const FULL = {
    loc: 'https://example.com/',
    lastmod: '2024-05-01',
    changefreq: 'daily',
    priority: 0.5,
    alternates: [{ hreflang: 'de', href: 'https://example.com/de/' }],
    images: [{ loc: 'https://example.com/i.png', caption: 'c', title: 't' }],
    videos: [
      {
        ...VIDEO,
        playerLoc: 'https://example.com/p',
        duration: 60,
        expirationDate: '2030-01-01',
        rating: 4.5,
        viewCount: 10,
        publicationDate: '2024-01-01',
        familyFriendly: true,
        restriction: { relationship: 'allow', countries: ['DE', 'FR'] },
        platform: { relationship: 'deny', platforms: ['tv'] },
        requiresSubscription: false,
        uploader: { name: 'u', info: 'https://example.com/u' },
        live: false,
        tags: ['a', 'b'],
      },
    ],
    news: {
      publication: { name: 'P', language: 'en' },
      publicationDate: '2024-05-01',
      title: 'N',
    },
  };
  const WRONG: unknown[] = ['x', '', 7, true, null, {}, [], [1], { length: 3 }];
  const options: UrlsetOptions = {
    extensions: ['xhtml', 'image', 'video', 'news'],
    includeChangefreq: true,
    includePriority: true,
  };

  /** Every path to a value in `value`: [] for the value itself, then its members', deeply. */
  function paths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
    const inner =
      typeof value === 'object' && value !== null
        ? Object.entries(value).flatMap(([key, member]) =>
            paths(member, [...at, Array.isArray(value) ? Number(key) : key]),
          )
        : [];
    return at.length === 0 ? inner : [at, ...inner];
  }

  function withValue(path: (string | number)[], wrong: unknown): unknown {
    const copy = structuredClone(FULL) as Record<string | number, unknown>;
    let parent = copy;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
    parent[path.at(-1) as string | number] = wrong;
    return copy;
  }

  test('every field, every wrong value', () => {
    assert.ok(formatUrlset([FULL as SitemapUrl], options).includes('<video:tag>b</video:tag>'));
    let refused = 0;
    for (const path of paths(FULL)) {
      for (const wrong of WRONG) {
        try {
          formatUrlset([withValue(path, wrong) as SitemapUrl], options);
        } catch (error) {
          const where = `${path.join('.')} = ${JSON.stringify(wrong)}`;
          assert.ok(isWaymarkError(error), `${where}: ${String(error)}`);
          assert.equal(error.code, 'invalid-argument', where);
          refused++;
        }
      }
    }
    assert.ok(refused > 100, `${refused} refused`);
  });
});
