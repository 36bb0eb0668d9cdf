// The robots.txt documents among the sitemap fixtures (../shared/fixtures/sitemaps/cases/):
// each must name exactly the sitemaps its case expects.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fixturePath, needsFixtures, readFixtureJson } from '../test-support/fixtures.ts';
import { parseRobots } from './index.ts';

interface SitemapCase {
  id: string;
  file: string;
  kind: string;
  served_as?: { url: string };
  expected_sitemaps?: string[];
}

const CASES = 'sitemaps/cases/cases.json';
describe('Sitemap lines in real robots.txt files', needsFixtures(CASES), () => {
  const { cases } = readFixtureJson<{ cases: SitemapCase[] }>(CASES);
  const robotsCases = cases.filter((c) => c.kind === 'robots');
  test('the fixture has robots.txt cases', () => assert.ok(robotsCases.length >= 6));
  for (const c of robotsCases) {
    test(c.id, () => {
      const bytes = readFileSync(fixturePath(`sitemaps/cases/${c.file}`));
      const robots = parseRobots(bytes, c.served_as ? { url: c.served_as.url } : {});
      assert.deepEqual(robots.sitemaps, c.expected_sitemaps);
    });
  }
});
