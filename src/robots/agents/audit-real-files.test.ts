// The audit on real robots.txt files: Cloudflare's managed block as published, read line by
// line, and the 2,000 files of the shared corpus (../shared/fixtures/robots/corpus/), read in place.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fixturePath, needsFixtures } from '../../test-support/fixtures.ts';
import { parseRobots } from '../parse-robots.ts';
import { scanRobots } from '../scan-robots.ts';
import { auditRobots, type CrawlerAudit } from './audit-robots.ts';

// Cloudflare's managed block exactly as Cloudflare's documentation publishes it (with the
// site's own rules after it), kept with the usage-preference conformance data.
const cloudflare = JSON.parse(
  readFileSync(
    new URL('../testdata/usage/cloudflare-managed-robots-txt.json', import.meta.url),
    'utf8',
  ),
) as { robotstxt: string };

describe("auditRobots on Cloudflare's managed robots.txt, line by line", () => {
  const robots = parseRobots(cloudflare.robotstxt);
  const audit = auditRobots(robots, { paths: ['/lp/offer', '/blog/'] });
  const crawlers = new Map<string, CrawlerAudit>(
    audit.purposes.flatMap((p) => p.crawlers).map((c) => [c.crawler.token, c]),
  );
  const lines = (token: string) =>
    crawlers
      .get(token)
      ?.decisions.map((d) => [d.allowed, d.rule?.line ?? null, d.group?.line ?? null]);

  test('every line reads as what it is: comments, the content signal, groups, the sitemap', () => {
    const kinds = new Map<string, number[]>();
    for (const line of scanRobots(cloudflare.robotstxt)) {
      kinds.set(line.kind, [...(kinds.get(line.kind) ?? []), line.line]);
    }
    assert.deepEqual(kinds.get('content-signal'), [29]);
    assert.deepEqual(kinds.get('user-agent'), [28, 32, 35, 38, 41, 44, 47, 50, 53, 57]);
    assert.deepEqual(kinds.get('allow'), [30]);
    assert.deepEqual(kinds.get('disallow'), [33, 36, 39, 42, 45, 48, 51, 54, 58, 59, 60]);
    assert.deepEqual(kinds.get('sitemap'), [62]);
    assert.equal(kinds.get('unknown'), undefined);
    assert.equal(kinds.get('invalid'), undefined);
    // No warnings or errors: only notes (Google ignores Content-Signal).
    assert.deepEqual(
      robots.diagnostics.filter((d) => d.severity !== 'info'),
      [],
    );
  });

  test('each AI crawler it names is blocked everywhere by its own group', () => {
    const named: [string, number][] = [
      ['Amazonbot', 32],
      ['Applebot-Extended', 35],
      ['Bytespider', 38],
      ['CCBot', 41],
      ['ClaudeBot', 44],
      ['Google-Extended', 47],
      ['GPTBot', 50],
      ['meta-externalagent', 53],
    ];
    for (const [token, group] of named) {
      assert.equal(crawlers.get(token)?.matchedBy, 'token', token);
      assert.deepEqual(lines(token), [
        [false, group + 1, group],
        [false, group + 1, group],
        [false, group + 1, group],
      ]);
      // A URL that may not be crawled carries no usage preferences (attach draft 3.1).
      assert.equal(robots.usage('/', token).reason, 'disallowed', token);
    }
  });

  test("search crawlers follow both * groups merged: / allowed (line 30), the site's /lp blocked (line 58)", () => {
    for (const token of ['Googlebot', 'bingbot', 'Applebot', 'DuckDuckBot']) {
      assert.deepEqual(
        lines(token),
        [
          [true, 30, 28],
          [false, 58, 57],
          [true, 30, 28],
        ],
        token,
      );
    }
    assert.equal(audit.purposes.find((p) => p.purpose === 'search')?.blocked, 0);
  });

  test('the content signal of line 29 applies to what they may crawl, and only to that', () => {
    const usage = robots.usage('https://www.crawlstop.com/blog/', 'Googlebot');
    assert.equal(usage.reason, 'preferences');
    assert.deepEqual(
      usage.preferences.map((p) => [p.field, p.line]),
      [['content-signal', 29]],
    );
    assert.deepEqual(usage.effective['content-signal'], {
      search: 'yes',
      'ai-train': 'no',
      use: 'reference',
    });
    assert.equal(robots.usage('/lp/offer', 'Googlebot').reason, 'disallowed');
  });

  test('AI training crawlers it does not name stay allowed, so the purpose is mixed', () => {
    const training = audit.purposes.find((p) => p.purpose === 'ai-training');
    assert.equal(training?.verdict, 'mixed');
    assert.ok(training?.crawlers.some((c) => c.matchedBy === 'global' && c.decisions[0]?.allowed));
  });

  test('no findings: the managed block makes none of the usual mistakes', () => {
    assert.deepEqual(audit.findings, []);
  });
});

describe('auditRobots on the real-world corpus', needsFixtures('robots/corpus/files'), () => {
  test('every file: decisions for every crawler and path, findings in line order with a fix', () => {
    const dir = fixturePath('robots/corpus/files');
    const names = readdirSync(dir).sort();
    assert.equal(names.length, 2000);
    const codes = new Set<string>();
    for (const name of names) {
      const audit = auditRobots(parseRobots(new Uint8Array(readFileSync(join(dir, name)))), {
        paths: ['/admin/', '/search?q=x'],
      });
      for (const purpose of audit.purposes) {
        for (const crawler of purpose.crawlers) assert.equal(crawler.decisions.length, 3, name);
      }
      audit.findings.forEach((finding, i) => {
        assert.ok(finding.hint.length > 0, `${name}: ${finding.code}`);
        assert.ok(i === 0 || (audit.findings[i - 1]?.line ?? 0) <= finding.line, name);
        codes.add(finding.code);
      });
    }
    // Real files make most of the mistakes the audit knows.
    for (const code of [
      'agent-extra-text',
      'agent-no-token',
      'agent-near-miss',
      'agent-token-not-rfc',
      'group-misses-global-rule',
      'crawl-delay-ignored',
      'search-blocked',
    ]) {
      assert.ok(codes.has(code), code);
    }
  });
});
