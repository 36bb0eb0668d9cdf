import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { seededRandom } from '../../test-support/seeded-random.ts';
import { type CrawlerRegistry, mergeCrawlerRegistries } from './crawler-registry.ts';
import { MAX_REGISTRY_CRAWLERS, parseCrawlerRegistry } from './parse-crawler-registry.ts';

const testRegistryText = readFileSync(
  new URL('./testdata/test-crawlers.json', import.meta.url),
  'utf8',
);

/** A complete, valid entry, for cases that change one field. */
const ENTRY = {
  token: 'ExampleBot',
  operator: 'Example',
  purpose: 'seo',
  description: 'An example crawler.',
  honoursRobotsTxt: true,
  honoursCrawlDelay: null,
  fetches: true,
  documentation: 'https://example.com/bot',
  verify: { reverseDns: ['example.com'], ipRanges: 'https://example.com/ranges.json' },
  source: 'https://example.com/bot',
  checked: '2026-11-24',
};

function registryOf(...crawlers: unknown[]): string {
  return JSON.stringify({ checked: '2026-11-24', crawlers }, null, 2);
}

describe('parseCrawlerRegistry', () => {
  test('reads a complete registry with no diagnostics', () => {
    const { registry, diagnostics } = parseCrawlerRegistry(testRegistryText);
    assert.deepEqual(diagnostics, []);
    assert.equal(registry.checked, '2026-11-20');
    assert.equal(registry.crawlers.length, 15);
    assert.deepEqual(registry.crawlers[1]?.fallback, ['Googlebot']);
    assert.equal(registry.crawlers[3]?.fetches, false);
  });

  test('a parsed value reads the same as its text', () => {
    const fromValue = parseCrawlerRegistry(JSON.parse(testRegistryText));
    assert.deepEqual(fromValue, parseCrawlerRegistry(testRegistryText));
  });

  // [what, entry, code, severity, kept, message part]
  const cases: [string, unknown, string, string, boolean, RegExp][] = [
    [
      'a token with a control character',
      { ...ENTRY, token: 'Bad\u001bBot' },
      'invalid-field',
      'error',
      false,
      /"token" has a control character/,
    ],
    [
      'no token',
      { ...ENTRY, token: undefined },
      'missing-field',
      'error',
      false,
      /"token" is missing/,
    ],
    [
      'empty operator',
      { ...ENTRY, operator: ' ' },
      'invalid-field',
      'error',
      false,
      /"operator" must be a non-empty string/,
    ],
    [
      'unknown purpose',
      { ...ENTRY, purpose: 'training' },
      'invalid-field',
      'error',
      false,
      /\("ExampleBot"\): "purpose" must be one of search, ai-training/,
    ],
    [
      'no purpose',
      { ...ENTRY, purpose: undefined },
      'missing-field',
      'error',
      false,
      /"purpose" is missing/,
    ],
    [
      'honoursRobotsTxt as text',
      { ...ENTRY, honoursRobotsTxt: 'yes' },
      'invalid-field',
      'error',
      false,
      /"honoursRobotsTxt" must be true, false or null/,
    ],
    [
      'fetches as null',
      { ...ENTRY, fetches: null },
      'invalid-field',
      'error',
      false,
      /"fetches" must be true or false/,
    ],
    [
      'relative documentation URL',
      { ...ENTRY, documentation: '/bot' },
      'invalid-field',
      'error',
      false,
      /"documentation" must be an absolute http\(s\) URL/,
    ],
    [
      'checked not a date',
      { ...ENTRY, checked: 'last week' },
      'invalid-field',
      'error',
      false,
      /"checked" must be a YYYY-MM-DD date/,
    ],
    [
      'reverseDns not a list',
      { ...ENTRY, verify: { reverseDns: 'example.com' } },
      'invalid-field',
      'error',
      false,
      /"verify.reverseDns" must be a list/,
    ],
    [
      'ipRanges not a URL',
      { ...ENTRY, verify: { ipRanges: 'ranges.json' } },
      'invalid-field',
      'error',
      false,
      /"verify.ipRanges"/,
    ],
    [
      'fallback with a slash',
      { ...ENTRY, fallback: ['Googlebot/2.1'] },
      'invalid-field',
      'error',
      false,
      /"fallback" must be a list of product tokens/,
    ],
    [
      'an entry that is not an object',
      'GPTBot',
      'invalid-entry',
      'error',
      false,
      /crawlers\[1\]: an entry is an object/,
    ],
    [
      'a misspelt field name',
      { ...ENTRY, honorsRobotsTxt: true },
      'unknown-field',
      'warning',
      true,
      /unknown field "honorsRobotsTxt"/,
    ],
    [
      'no documentation',
      { ...ENTRY, documentation: undefined },
      'field-defaulted',
      'warning',
      true,
      /"documentation" is missing; read as empty/,
    ],
    [
      'no honoursCrawlDelay',
      { ...ENTRY, honoursCrawlDelay: undefined },
      'field-defaulted',
      'warning',
      true,
      /read as null/,
    ],
    [
      'a token with a digit',
      { ...ENTRY, token: 'MJ12bot' },
      'invalid-token',
      'warning',
      true,
      /"MJ12bot" is not a product token .* read as "MJ"/,
    ],
    [
      'a token with a space',
      { ...ENTRY, token: 'Screaming Frog' },
      'invalid-token',
      'warning',
      true,
      /read as "Screaming"/,
    ],
  ];
  for (const [what, entry, code, severity, kept, message] of cases) {
    test(`${what}: ${code} (${severity}), entry ${kept ? 'kept' : 'left out'}`, () => {
      const text = registryOf(ENTRY2, entry);
      // The second entry's line: where its text opens.
      const line = text.split('\n').findLastIndex((l) => /^ {4}[{"]/.test(l)) + 1;
      const { registry, diagnostics } = parseCrawlerRegistry(text);
      assert.deepEqual(
        diagnostics.map((d) => [d.code, d.severity, d.line]),
        [[code, severity, line]],
      );
      assert.match(diagnostics[0]?.message ?? '', message);
      assert.equal(registry.crawlers.length, kept ? 2 : 1, 'the valid entry is always kept');
    });
  }

  test('a duplicate token (case-insensitive) is left out with an error naming both entries', () => {
    const { registry, diagnostics } = parseCrawlerRegistry(
      registryOf(ENTRY, { ...ENTRY, token: 'examplebot', operator: 'Other' }),
    );
    assert.equal(registry.crawlers.length, 1);
    assert.equal(registry.crawlers[0]?.operator, 'Example');
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.severity, d.message]),
      [
        [
          'duplicate-token',
          'error',
          'crawlers[1] ("examplebot"): token "examplebot" is already used by crawlers[0] (tokens are compared case-insensitively); this entry is left out',
        ],
      ],
    );
  });

  test('invalid JSON is one error with its line and column', () => {
    const { registry, diagnostics } = parseCrawlerRegistry(
      '{\n  "crawlers": [\n    {"token": }\n  ]\n}',
    );
    assert.deepEqual(registry, { checked: '', crawlers: [] });
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0]?.code, 'invalid-json');
    assert.equal(diagnostics[0]?.line, 3);
  });

  for (const value of [null, 42, 'null', '[]', [], {}, { crawlers: {} }, '{"crawlers": "x"}']) {
    test(`not a registry (${JSON.stringify(value)}): invalid-registry, empty registry`, () => {
      const { registry, diagnostics } = parseCrawlerRegistry(value);
      assert.deepEqual(registry.crawlers, []);
      assert.deepEqual(
        diagnostics.map((d) => d.code),
        ['invalid-registry'],
      );
    });
  }

  test('a registry without a date, with an unknown top-level field, and a BOM', () => {
    const { registry, diagnostics } = parseCrawlerRegistry(
      `\uFEFF${JSON.stringify({ version: 2, crawlers: [ENTRY] })}`,
    );
    assert.equal(registry.crawlers.length, 1);
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      ['field-defaulted', 'unknown-field'],
    );
  });

  test('an entry without its date takes the registry date', () => {
    const { registry } = parseCrawlerRegistry({
      checked: '2026-01-02',
      crawlers: [{ ...ENTRY, checked: undefined }],
    });
    assert.equal(registry.crawlers[0]?.checked, '2026-01-02');
  });

  test('total: random values and texts never throw', () => {
    const random = seededRandom(7);
    const pieces = [
      '{',
      '}',
      '[',
      ']',
      '"token"',
      ':',
      ',',
      '"crawlers"',
      'null',
      '1',
      '"x"',
      '\\',
      '"',
      '\n',
    ];
    const values: unknown[] = [
      undefined,
      true,
      0,
      'x',
      [],
      {},
      [null],
      { crawlers: [null, 1, 'x', [], {}] },
    ];
    for (let i = 0; i < 2000; i++) {
      const text = Array.from(
        { length: 1 + Math.floor(random() * 30) },
        () => pieces[Math.floor(random() * pieces.length)],
      ).join('');
      const reading = parseCrawlerRegistry(text);
      assert.ok(Array.isArray(reading.registry.crawlers));
      const entry = Object.fromEntries(
        Object.keys(ENTRY).map((key) => [key, values[Math.floor(random() * values.length)]]),
      );
      parseCrawlerRegistry({ checked: values[i % values.length], crawlers: [entry, ENTRY] });
    }
  });
});

const ENTRY2 = { ...ENTRY, token: 'OtherBot' };

test('parseCrawlerRegistry: past 10,000 entries, the rest is left out with one error', () => {
  const entry = (i: number) => ({ token: `Bot${i}`, operator: 'Example', purpose: 'seo' });
  const count = MAX_REGISTRY_CRAWLERS + 5;
  const text = JSON.stringify(
    { checked: '2026-11-24', crawlers: Array.from({ length: count }, (_, i) => entry(i)) },
    null,
    1,
  );
  const { registry, diagnostics } = parseCrawlerRegistry(text);
  assert.equal(registry.crawlers.length, MAX_REGISTRY_CRAWLERS);
  assert.equal(registry.crawlers.at(-1)?.token, `Bot${MAX_REGISTRY_CRAWLERS - 1}`);
  const tooMany = diagnostics.filter((d) => d.code === 'too-many-crawlers');
  assert.equal(tooMany.length, 1);
  assert.equal(tooMany[0]?.severity, 'error');
  assert.equal(tooMany[0]?.message, `${count} crawlers: only the first 10000 are read`);
  // At the line of the first entry left out: its `{`, its token on the next line.
  const line = tooMany[0]?.line ?? 0;
  const lines = text.split('\n');
  assert.equal(lines[line - 1], '  {');
  assert.match(lines[line] ?? '', /"token": "Bot10000"/);
  assert.equal(diagnostics.at(-1), tooMany[0], 'after the entries read');
});

describe('mergeCrawlerRegistries', () => {
  const base: CrawlerRegistry = parseCrawlerRegistry(testRegistryText).registry;
  test('an entry with the same token replaces the base one in its place; new ones are added', () => {
    const extra = parseCrawlerRegistry(
      registryOf({ ...ENTRY, token: 'gptbot', purpose: 'other' }, ENTRY),
    ).registry;
    const merged = mergeCrawlerRegistries(base, extra);
    const tokens = merged.crawlers.map((c) => c.token);
    assert.equal(merged.crawlers.length, base.crawlers.length + 1);
    assert.equal(
      tokens.indexOf('gptbot'),
      base.crawlers.findIndex((c) => c.token === 'GPTBot'),
    );
    assert.equal(merged.crawlers.find((c) => c.token === 'gptbot')?.purpose, 'other');
    assert.equal(tokens.at(-1), 'ExampleBot');
    assert.equal(merged.checked, '2026-11-20', 'the earlier date');
  });
});
