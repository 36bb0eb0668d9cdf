// The listing at `/` is named and rendered once per state of the root, not per request: it
// depends on nothing in the request, and on a large root it costs a second of CPU on the
// thread that answers robots.txt.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DocumentNames } from './document-names.ts';
import type { ListedDocument } from './listing-page.ts';
import type { SiteEntry } from './site-index.ts';

/** DocumentNames whose naming is counted, and complete or not as told. */
class CountedNames extends DocumentNames {
  calls = 0;
  complete = true;
  override async listing(): Promise<{ documents: ListedDocument[]; complete: boolean }> {
    this.calls++;
    const documents = [{ path: 'a.md', href: '/a', title: `A${this.calls}` }];
    return { documents, complete: this.complete };
  }
}

const entries: readonly SiteEntry[] = [];

test('one listing page per state; a new state makes it again, headings that could not be read after a while', async () => {
  let clock = 0;
  const names = new CountedNames(() => clock);
  const first = await names.listingPage('/root', entries, 1);
  assert.match(first, />A1</);
  const [again, concurrent] = await Promise.all([
    names.listingPage('/root', entries, 1),
    names.listingPage('/root', entries, 1),
  ]);
  assert.equal(again, first);
  assert.equal(concurrent, first);
  assert.equal(names.calls, 1);

  assert.match(await names.listingPage('/root', entries, 2), />A2</);
  assert.equal(names.calls, 2);

  names.complete = false;
  assert.match(await names.listingPage('/root', entries, 3), />A3</);
  assert.match(await names.listingPage('/root', entries, 3), />A3</, 'kept a while');
  clock += 10_000;
  assert.match(await names.listingPage('/root', entries, 3), />A4</, 'then made again');
  names.complete = true;
  clock += 10_000;
  await names.listingPage('/root', entries, 3);
  clock += 60_000;
  await names.listingPage('/root', entries, 3);
  assert.equal(names.calls, 5);
});
