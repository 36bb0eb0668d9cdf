// robots.txt by crawler purpose (`robotsPurposes`) and usage lines (`robotsUsage`) from
// waymark.site.yaml: expanded from the known-crawler registry, merged with the reserved
// paths and configured groups, and never naming the admin path.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { KNOWN_CRAWLERS } from '../robots/agents/known-crawlers.ts';
import { parseRobots } from '../robots/index.ts';
import { parseSiteConfig, startSiteServer } from './index.ts';
import { makeContentRoot } from './test-support/content-root.ts';

/** The registry's tokens of a purpose that robots.txt can name (RFC 9309 product tokens). */
const tokens = (purpose: string): string[] =>
  KNOWN_CRAWLERS.crawlers
    .filter((c) => c.purpose === purpose && /^[A-Za-z_-]+$/.test(c.token))
    .map((c) => c.token);

const CONFIG = [
  'adminPath: cms/',
  'reserved: [drafts/]',
  'robotsGroups:',
  '  - userAgents: [GPTBot]',
  '    rules: [{ allow: /open/ }, { disallow: / }]',
  'robotsPurposes:',
  '  ai-training: disallow',
  '  search: allow',
  'robotsUsage:',
  '  - contentUsage: train-ai=n',
  '  - { contentUsage: train-ai=y, path: /open/ }',
  '  - contentSignal: search=yes, ai-train=no',
  '',
].join('\n');

describe('robotsPurposes and robotsUsage', () => {
  test('each purpose as asked, reserved paths kept out, admin path never named', async (t) => {
    const root = makeContentRoot({ 'a.md': '# A\n', 'waymark.site.yaml': CONFIG });
    t.after(() => root.remove());
    const server = await startSiteServer({ root: root.dir, port: 0 });
    t.after(() => server.close());
    assert.deepEqual(await server.handler.diagnostics(), []);
    const response = await fetch(`${server.origin}/robots.txt`);
    assert.equal(response.status, 200);
    const text = await response.text();
    assert.ok(!/cms/i.test(text), text);
    const robots = parseRobots(text);
    const training = tokens('ai-training').filter((token) => token !== 'GPTBot');
    const search = tokens('search');
    assert.ok(training.length > 3 && search.length > 3, 'the registry has both purposes');
    for (const agent of training) {
      assert.equal(robots.isAllowed('/', agent), false, agent);
      assert.equal(robots.isAllowed('/a', agent), false, agent);
    }
    for (const agent of search) {
      assert.equal(robots.isAllowed('/', agent), true, agent);
      assert.equal(robots.isAllowed('/api/x', agent), false, `${agent} /api/`);
      assert.equal(robots.isAllowed('/drafts/x', agent), false, `${agent} /drafts/`);
    }
    // The configured group wins over the purpose group for the token it names.
    assert.equal(robots.isAllowed('/open/page', 'GPTBot'), true);
    assert.equal(robots.isAllowed('/closed', 'GPTBot'), false);
    // Crawlers of no configured purpose get the `*` group.
    assert.equal(robots.isAllowed('/a', 'SomeOtherBot'), true);
    assert.equal(robots.isAllowed('/login/', 'SomeOtherBot'), false);
  });

  test('usage lines: in every group that may fetch anything', async (t) => {
    const root = makeContentRoot({ 'a.md': '# A\n', 'waymark.site.yaml': CONFIG });
    t.after(() => root.remove());
    const server = await startSiteServer({ root: root.dir, port: 0 });
    t.after(() => server.close());
    const robots = parseRobots(await (await fetch(`${server.origin}/robots.txt`)).text());
    const usageOf = (agent: string): string[] => {
      const group = robots.groups.find((g) => g.userAgents.includes(agent));
      return (group?.usage ?? []).map((u) => `${u.field} ${u.path ?? ''} ${u.value}`);
    };
    const expected = [
      'content-usage  train-ai=n',
      'content-usage /open/ train-ai=y',
      'content-signal  search=yes, ai-train=no',
    ];
    assert.deepEqual(usageOf('*'), expected);
    assert.deepEqual(usageOf('Googlebot'), expected);
    assert.deepEqual(usageOf('GPTBot'), expected);
    assert.deepEqual(usageOf('CCBot'), [], 'Disallow: / says it all');
  });

  test('configuration errors', () => {
    for (const yaml of [
      'robotsPurposes: { ai-dreams: disallow }',
      'robotsPurposes: { search: maybe }',
      'robotsPurposes: [search]',
      'robotsUsage: [{ contentUsage: "A=b" }]',
      'robotsUsage: [{ contentSignal: "x # y" }]',
      'robotsUsage: [{ contentUsage: train-ai=n, contentSignal: search=yes }]',
      'robotsUsage: [{ contentUsage: train-ai=n, path: blog }]',
      'robotsUsage: [{ colour: blue }]',
      // formatRobots would refuse these: a legacy term, a value the term does not take.
      'robotsUsage: [{ contentUsage: genai=n }]',
      'robotsUsage: [{ contentSignal: ai-train=maybe }]',
    ]) {
      assert.equal(parseSiteConfig(yaml).diagnostics[0]?.code, 'config-invalid', yaml);
    }
    assert.deepEqual(
      parseSiteConfig('robotsUsage: [{ contentUsage: train-ai=n, path: /blog/ }]').config,
      { robotsUsage: [{ field: 'content-usage', value: 'train-ai=n', path: '/blog/' }] },
    );
  });
});
