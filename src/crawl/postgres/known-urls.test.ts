import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IN_SITEMAP, KnownUrls, LINKED } from './known-urls.ts';

describe('KnownUrls', () => {
  it('knows a URL only with the marks it was remembered with, or more', () => {
    const known = new KnownUrls(10);
    assert.equal(known.has('https://a.test/', 0), false, 'never seen');
    known.remember('https://a.test/', LINKED);
    assert.equal(known.has('https://a.test/', LINKED), true);
    assert.equal(known.has('https://a.test/', 0), true, 'no mark asked: held is enough');
    assert.equal(known.has('https://a.test/', IN_SITEMAP), false, 'a mark it may lack');
    assert.equal(known.has('https://a.test/', LINKED | IN_SITEMAP), false);
    known.remember('https://a.test/', IN_SITEMAP);
    assert.equal(known.has('https://a.test/', LINKED | IN_SITEMAP), true, 'marks add up');
  });

  it('forgets the oldest URL past its capacity, never growing beyond it', () => {
    const known = new KnownUrls(3);
    for (const path of ['a', 'b', 'c']) known.remember(`https://a.test/${path}`, LINKED);
    known.remember('https://a.test/b', IN_SITEMAP);
    known.remember('https://a.test/d', LINKED);
    assert.equal(known.size, 3);
    assert.equal(known.has('https://a.test/a', 0), false, 'the oldest went');
    for (const path of ['b', 'c', 'd']) assert.equal(known.has(`https://a.test/${path}`, 0), true);
    assert.equal(known.has('https://a.test/b', LINKED | IN_SITEMAP), true);
  });

  it('with no capacity, remembers nothing', () => {
    const known = new KnownUrls(0);
    known.remember('https://a.test/', LINKED);
    assert.equal(known.size, 0);
    assert.equal(known.has('https://a.test/', 0), false);
  });
});
