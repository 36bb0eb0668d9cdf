// robots.txt must not give the admin path away in any spelling a crawler (or this server)
// would read as it: every published rule is matched against the admin area by the robots
// engine itself. And a method a Fetch Request cannot carry gets 405, not 500.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { describe, test } from 'node:test';
import { parseRobots } from '../robots/index.ts';
import { createSiteHandler, ReservedPaths, startSiteServer } from './index.ts';
import { makeContentRoot, siteRequest } from './test-support/content-root.ts';

/** Patterns that match the admin area `/cms/` (in some reading) and nothing like it. */
const REVEALING = [
  '/cms/',
  '*cms/',
  '/%63ms/',
  '/%63%6D%73',
  '/c*s/',
  '/cm*',
  '/c*',
  '/c',
  '/CMS/',
  '/cms$',
  '/c*s$',
  '/c*s/users',
  '/*cms',
  '/*/cms/x',
  '/x/../cms/',
  `/c*s/${'x'.repeat(300)}`,
];

/** Patterns that match the admin area only as they match any path, or not at all. */
const HARMLESS = ['/', '/*', '*', '/*/', '/*.pdf$', '/*?sort=', '/search', '/private/', '/$', ''];

describe('robots.txt never gives the admin path away', () => {
  const reserved = new ReservedPaths({ adminPath: 'cms/' });
  for (const pattern of REVEALING) {
    test(`reveals: ${JSON.stringify(pattern.slice(0, 30))}`, () => {
      assert.equal(reserved.revealsAdmin(pattern), true);
    });
  }
  for (const pattern of HARMLESS) {
    test(`harmless: ${JSON.stringify(pattern)}`, () => {
      assert.equal(reserved.revealsAdmin(pattern), false);
    });
  }

  test('the served robots.txt: no published rule matches the admin area', async (t) => {
    const root = makeContentRoot({ 'a.md': '# A\n' });
    t.after(() => root.remove());
    const rules = [...REVEALING, ...HARMLESS.filter((p) => p !== '')].map((pattern) => ({
      directive: 'disallow' as const,
      pattern,
    }));
    const handler = createSiteHandler({
      root: root.dir,
      configFile: null,
      config: {
        adminPath: 'cms/',
        robotsRules: rules,
        robotsGroups: [
          { userAgents: ['GPTBot', 'CmsBot'], rules: [{ directive: 'allow', pattern: '/c*s/' }] },
          { userAgents: ['Bingbot'], rules: [{ directive: 'disallow', pattern: '/' }] },
        ],
        reserved: ['c*s/', '%63ms/x', 'drafts/'],
      },
    });
    try {
      const text = await (await handler(siteRequest('/robots.txt'))).text();
      assert.doesNotMatch(text, /cms|c\*s|%63|CmsBot/i);
      // Each published rule, alone, must not match the admin area where a neutral path
      // would not match: the same check as the handler's, done here on the text it wrote.
      const robots = parseRobots(text);
      for (const group of robots.groups) {
        for (const rule of group.rules) {
          const alone = parseRobots(`User-agent: *\nDisallow: ${rule.pattern}\n`);
          const blocks = (path: string): boolean => !alone.isAllowed(path, 'bot');
          assert.ok(!blocks('/cms/') || blocks('/!!!/'), `published: ${rule.pattern}`);
        }
      }
      assert.match(text, /Disallow: \/search\n/);
      assert.match(text, /Disallow: \/drafts\/\n/);
      assert.match(text, /User-agent: Bingbot\nDisallow: \/\n/);
      const dropped = (await handler.diagnostics()).filter((d) => d.code === 'robots-names-admin');
      assert.equal(dropped.length, REVEALING.length + 2, 'each rule and agent reported');
    } finally {
      await handler.close();
    }
  });
});

/** One request with any method, through node:http (fetch cannot send TRACE). */
function send(
  origin: string,
  method: string,
  path: string,
): Promise<{ status: number; allow: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}${path}`, { method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('methods other than GET and HEAD', () => {
  test('405 with Allow through the real server, TRACE included (never 500)', async (t) => {
    const root = makeContentRoot({ 'a.md': '# A\n' });
    t.after(() => root.remove());
    const server = await startSiteServer({ root: root.dir, port: 0 });
    try {
      for (const method of ['TRACE', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'PROPFIND']) {
        for (const path of ['/robots.txt', '/sitemap.xml', '/', '/nowhere']) {
          const response = await send(server.origin, method, path);
          assert.equal(response.status, 405, `${method} ${path}`);
          assert.equal(response.allow, 'GET, HEAD', `${method} ${path}`);
        }
      }
      // CONNECT reaches a 'connect' listener only: answered 405 too, not a closed socket.
      const answer = await new Promise<string>((resolve) => {
        const socket = connect(Number(new URL(server.origin).port), '127.0.0.1', () =>
          socket.write('CONNECT /robots.txt HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'),
        );
        let data = '';
        socket.setEncoding('latin1');
        socket.on('data', (chunk: string) => {
          data += chunk;
        });
        socket.on('close', () => resolve(data));
      });
      assert.match(answer, /^HTTP\/1\.1 405 Method Not Allowed\r\nAllow: GET, HEAD\r\n/);
    } finally {
      await server.close();
    }
  });
});
