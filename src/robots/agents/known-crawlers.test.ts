import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { isValidUserAgent } from '../internal/user-agent.ts';
import { findCrawler } from './crawler-registry.ts';
import { KNOWN_CRAWLERS, KNOWN_CRAWLERS_DIAGNOSTICS } from './known-crawlers.ts';
import { parseCrawlerRegistry } from './parse-crawler-registry.ts';

/** The crawlers issue 13 names; the registry must keep them. */
const REQUIRED = [
  'Googlebot',
  'Google-Extended',
  'GoogleOther',
  'Bingbot',
  'Applebot',
  'Applebot-Extended',
  'GPTBot',
  'OAI-SearchBot',
  'ChatGPT-User',
  'ClaudeBot',
  'Claude-User',
  'Claude-SearchBot',
  'PerplexityBot',
  'Perplexity-User',
  'CCBot',
  'Bytespider',
  'Amazonbot',
  'Meta-ExternalAgent',
  'cohere-ai',
  'DuckAssistBot',
  'MistralAI-User',
];

/**
 * Tokens recorded as their operators document them although they are not RFC 9309 product
 * tokens (a digit, a dot, spaces). They are reported, kept and pinned here: a new one must
 * be a deliberate change.
 */
const DOCUMENTED_NON_TOKENS = ['AI2Bot', 'archive.org_bot', 'MJ12bot', 'Screaming Frog SEO Spider'];

describe('KNOWN_CRAWLERS (the bundled known-crawlers.json)', () => {
  test('reads without diagnostics other than the pinned non-product tokens', () => {
    assert.deepEqual(
      KNOWN_CRAWLERS_DIAGNOSTICS.filter((d) => d.code !== 'invalid-token'),
      [],
    );
    assert.deepEqual(
      KNOWN_CRAWLERS_DIAGNOSTICS.map((d) => /token "([^"]+)"/.exec(d.message)?.[1]),
      DOCUMENTED_NON_TOKENS,
    );
    assert.deepEqual(
      KNOWN_CRAWLERS.crawlers.filter((c) => !isValidUserAgent(c.token)).map((c) => c.token),
      DOCUMENTED_NON_TOKENS,
    );
  });

  test('the file read as text gives the same registry, nothing dropped', () => {
    const text = readFileSync(new URL('./known-crawlers.json', import.meta.url), 'utf8');
    const { registry } = parseCrawlerRegistry(text);
    assert.deepEqual(registry, KNOWN_CRAWLERS);
    assert.equal(
      registry.crawlers.length,
      (JSON.parse(text) as { crawlers: unknown[] }).crawlers.length,
    );
  });

  test('covers at least 60 crawlers, among them every one the issue names', () => {
    assert.ok(KNOWN_CRAWLERS.crawlers.length >= 60, `${KNOWN_CRAWLERS.crawlers.length} crawlers`);
    const missing = REQUIRED.filter((token) => findCrawler(KNOWN_CRAWLERS, token) === undefined);
    assert.deepEqual(missing, []);
  });

  test('every entry says where its facts come from and when they were checked', () => {
    for (const crawler of KNOWN_CRAWLERS.crawlers) {
      assert.match(crawler.source, /^https?:\/\//, crawler.token);
      assert.match(crawler.documentation, /^https?:\/\//, crawler.token);
      assert.match(crawler.checked, /^\d{4}-\d{2}-\d{2}$/, crawler.token);
      assert.ok(
        crawler.checked <= KNOWN_CRAWLERS.checked,
        `${crawler.token} checked after the registry`,
      );
      assert.ok(crawler.description.length > 0, crawler.token);
    }
  });

  test('fallback tokens name crawlers of the registry or their own documented groups', () => {
    for (const crawler of KNOWN_CRAWLERS.crawlers) {
      for (const token of crawler.fallback ?? []) {
        assert.notEqual(token.toLowerCase(), crawler.token.toLowerCase(), crawler.token);
        assert.ok(isValidUserAgent(token), `${crawler.token}: fallback ${token}`);
      }
    }
  });

  test('control tokens (fetches: false) include Google-Extended and Applebot-Extended', () => {
    const control = KNOWN_CRAWLERS.crawlers.filter((c) => !c.fetches).map((c) => c.token);
    assert.ok(control.includes('Google-Extended'));
    assert.ok(control.includes('Applebot-Extended'));
  });

  test('is frozen, so no caller can change it for everyone', () => {
    assert.ok(Object.isFrozen(KNOWN_CRAWLERS));
    assert.ok(Object.isFrozen(KNOWN_CRAWLERS.crawlers));
    assert.ok(
      KNOWN_CRAWLERS.crawlers.every((c) => Object.isFrozen(c) && Object.isFrozen(c.verify)),
    );
    assert.throws(() => {
      (KNOWN_CRAWLERS.crawlers as unknown[]).push({});
    }, TypeError);
  });
});
