// The Node adapter writes the handler's sitemaps from pooled buffers it reuses once the
// socket has taken them (a fast path); any other consumer reads the same Response as a Web
// stream of fresh buffers (its slow twin). Both must give the same bytes, also with many
// responses in flight at once for different origins of one length (a buffer given back
// too early would show another response's origin), and with clients that go away mid-body.
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createSiteHandler, type SiteHandler, toNodeListener } from './index.ts';
import { type ContentRoot, makeContentRoot } from './test-support/content-root.ts';

/** A GET through node:http with a chosen Host; the body as sent, read slowly if asked. */
function get(port: number, path: string, host: string, slow = false): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port, path, headers: { host }, agent: false },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        if (slow) {
          // Not read at first: the server's writes wait for this client.
          incoming.pause();
          setTimeout(() => incoming.resume(), 300);
        }
        incoming.on('end', () => resolve(Buffer.concat(chunks)));
        incoming.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** Starts a GET and drops the connection after the first bytes of the body. */
function abandon(port: number, path: string): Promise<void> {
  return new Promise((resolve) => {
    const outgoing = request({ host: '127.0.0.1', port, path, agent: false }, (incoming) => {
      incoming.once('data', () => {
        outgoing.destroy();
        resolve();
      });
    });
    outgoing.on('error', () => resolve());
    outgoing.end();
  });
}

describe('sitemaps written from pooled buffers', () => {
  let root: ContentRoot;
  let handler: SiteHandler;
  let server: Server;
  let port: number;
  before(async () => {
    const files: Record<string, string> = {};
    // About 4 MB of sitemap (long aliases): more than the kernel buffers of a paused
    // client take, so writes complete late and a buffer given back early would be reused.
    for (let i = 0; i < 4000; i++) {
      const doc = `docs/section-${i % 40}/page-${i}.md`;
      files[doc] = `# ${i}\n`;
      files[`${doc}.meta.yaml`] = `alias: /${'long-alias-'.repeat(90)}${i}\n`;
    }
    root = makeContentRoot(files);
    handler = createSiteHandler({ root: root.dir });
    server = createServer(toNodeListener(handler));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await handler.close();
    root.remove();
  });

  /** What the handler's Response gives when read as a Web stream. */
  async function viaStream(host: string): Promise<Buffer> {
    const response = await handler(
      new Request('http://localhost/sitemap.xml', { headers: { host } }),
    );
    assert.equal(response.status, 200);
    return Buffer.from(await response.arrayBuffer());
  }

  test('the same bytes as the Web stream, for many origins at once', async () => {
    const hosts = Array.from(
      { length: 12 },
      (_, i) => `site-${String.fromCharCode(97 + i)}.example`,
    );
    const expected = await Promise.all(hosts.map((host) => viaStream(host)));
    assert.ok((expected[0]?.length ?? 0) > 4_000_000, `${expected[0]?.length} bytes`);
    for (const [i, host] of hosts.entries()) {
      assert.ok(expected[i]?.includes(`<loc>http://${host}/long-alias-`), host);
    }
    for (let round = 0; round < 2; round++) {
      const answers = await Promise.all([
        ...hosts.map((host, i) => get(port, '/sitemap.xml', host, i % 2 === 0)),
        abandon(port, '/sitemap.xml'),
        abandon(port, '/sitemap.xml'),
      ]);
      for (const [i, host] of hosts.entries()) {
        const answer = answers[i] as Buffer;
        assert.ok(answer.equals(expected[i] as Buffer), `${host}, round ${round}`);
      }
    }
  });

  test('a Response read as a stream cannot also be written from the pool', async () => {
    const response = await handler(new Request('http://localhost/sitemap.xml'));
    const reader = response.body?.getReader();
    const first = await reader?.read();
    assert.ok((first?.value?.length ?? 0) > 0);
    await reader?.cancel();
  });
});
