// Differential test: the char-code key classifier (each char read once, in place in the line's
// text) against the one it replaced, which lower-cased the key and compared prefixes
// (test-support/scan-lines-reference.ts), on every prefix of every spelling and on seeded
// mutations of them: substituted, inserted and dropped chars, odd casing, chars that
// lower-case to ASCII (U+0130, U+212A), text around the key.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../test-support/seeded-random.ts';
import { referenceClassifyKey } from '../test-support/scan-lines-reference.ts';
import { classifyKey } from './directive-key.ts';

const SPELLINGS = [
  'user-agent',
  'useragent',
  'user agent',
  'allow',
  'disallow',
  'dissallow',
  'dissalow',
  'disalow',
  'diasllow',
  'disallaw',
  'sitemap',
  'site-map',
  'content-usage',
  'content-signal',
  'crawl-delay',
  'clean-param',
  'host',
  'noarchive',
  'noindex',
  'nofollow',
];
const CHARS = [...'usergantlowdipmchfkUSERGANTLOWDIPMCHFK- _:\t.', '\u0130', '\u212a', 'é', '\0'];

/** Text after a key: a key's end must be respected whatever follows it. */
const AFTER = ['', 'x', 'l', 'ow', 'low', 'w', ': /'];

function assertClassifiedAsReference(key: string): void {
  const want = referenceClassifyKey(key);
  for (const before of ['', 'ab:']) {
    for (const after of AFTER) {
      const text = before + key + after;
      const got = classifyKey(text, before.length, before.length + key.length);
      assert.deepEqual(
        { kind: got.kind, typo: got.typo, crawlDelay: got.crawlDelay },
        { ...want, crawlDelay: key.toLowerCase() === 'crawl-delay' },
        JSON.stringify({ text, key }),
      );
    }
  }
}

test('keys are classified as the lower-casing classifier classified them', () => {
  const next = seededRandom(1406);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  let known = 0;
  for (const spelling of SPELLINGS) {
    for (let length = 0; length <= spelling.length; length++) {
      for (const key of [spelling.slice(0, length), spelling.slice(0, length).toUpperCase()]) {
        assertClassifiedAsReference(key);
      }
    }
    for (let round = 0; round < 4000; round++) {
      let key = spelling;
      for (let edits = Math.floor(next() * 3); edits > 0; edits--) {
        const at = Math.floor(next() * (key.length + 1));
        const r = next();
        if (r < 0.4) key = key.slice(0, at) + pick(CHARS) + key.slice(at + 1);
        else if (r < 0.7) key = key.slice(0, at) + pick(CHARS) + key.slice(at);
        else key = key.slice(0, at) + key.slice(at + 1);
      }
      if (next() < 0.3) key = [...key].map((c) => (next() < 0.5 ? c.toUpperCase() : c)).join('');
      if (next() < 0.2) key += pick(['s', 'ed', 'x y', '-x']);
      assertClassifiedAsReference(key);
      if (referenceClassifyKey(key).kind !== 'unknown') known++;
    }
  }
  // Mutations are mild enough that many keys still classify as a directive.
  assert.ok(known > 20_000, `${known} known keys`);
});
