import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_SITE_CONFIG, parseSiteConfig, resolveSiteConfig } from './index.ts';

describe('parseSiteConfig', () => {
  test('every key, with the short rule form', () => {
    const { config, diagnostics } = parseSiteConfig(
      [
        'adminPath: cms/',
        'trailingSlash: always',
        'reserved: [drafts/, {path: cart.html, publish: false}]',
        'robotsRules:',
        '  - disallow: /search',
        '  - { directive: allow, pattern: /search/help }',
        'robotsGroups:',
        '  - userAgents: [GPTBot]',
        '    rules: [{ disallow: / }]',
        'trustProxy: true',
        'maxUrls: 1000',
        'maxBytes: 100000',
      ].join('\n'),
    );
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(config, {
      adminPath: 'cms/',
      trailingSlash: 'always',
      reserved: ['drafts/', { path: 'cart.html', publish: false }],
      robotsRules: [
        { directive: 'disallow', pattern: '/search' },
        { directive: 'allow', pattern: '/search/help' },
      ],
      robotsGroups: [{ userAgents: ['GPTBot'], rules: [{ directive: 'disallow', pattern: '/' }] }],
      trustProxy: true,
      maxUrls: 1000,
      maxBytes: 100000,
    });
  });

  const BROKEN: [text: string, code: string, kept: Record<string, unknown>][] = [
    ['trailingSlash: sometimes\nmaxUrls: 10\n', 'config-invalid', { maxUrls: 10 }],
    ['maxUrls: 50001\n', 'config-invalid', {}],
    ['maxBytes: 0\n', 'config-invalid', {}],
    ['adminPath: "a b"\n', 'config-invalid', {}],
    ['trustProxy: yes please\n', 'config-invalid', {}],
    ['robotsRules: [{ block: / }]\n', 'config-invalid', {}],
    ['colour: blue\ntrustProxy: true\n', 'config-unknown-key', { trustProxy: true }],
    ['adminPath: [unclosed\n', 'config-yaml', {}],
    ['- a list\n', 'config-shape', {}],
    ['a: 1\na: 2\n', 'config-yaml', {}],
  ];
  for (const [text, code, kept] of BROKEN) {
    test(`${code}: ${JSON.stringify(text)}`, () => {
      const { config, diagnostics } = parseSiteConfig(text);
      assert.ok(
        diagnostics.some((d) => d.code === code),
        JSON.stringify(diagnostics),
      );
      assert.deepEqual(config, kept);
    });
  }

  test('an empty file is the defaults', () => {
    assert.deepEqual(parseSiteConfig(''), { config: {}, diagnostics: [] });
  });
});

describe('resolveSiteConfig', () => {
  test('later layers win key by key', () => {
    const config = resolveSiteConfig({ adminPath: 'cms/', maxUrls: 10 }, { maxUrls: 20 });
    assert.deepEqual(config, { ...DEFAULT_SITE_CONFIG, adminPath: 'cms/', maxUrls: 20 });
  });
  test('a wrong option throws invalid-argument naming the key', () => {
    assert.throws(() => resolveSiteConfig({ maxUrls: 0 }), {
      code: 'invalid-argument',
      message: /maxUrls/,
    });
    assert.throws(() => resolveSiteConfig({ nope: 1 } as never), {
      code: 'invalid-argument',
      message: /nope/,
    });
  });
});
