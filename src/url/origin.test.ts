import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { canonicalHostOf, originOf, sameSite } from './index.ts';

interface UrlCase {
  url: string;
  expected: string | null;
}

interface SameSiteCase {
  url: string;
  origin: string;
  canonicalHost?: boolean;
  expected: boolean;
  note?: string;
}

const table = JSON.parse(
  readFileSync(new URL('./testdata/origin.json', import.meta.url), 'utf8'),
) as { originOf: UrlCase[]; canonicalHostOf: UrlCase[]; sameSite: SameSiteCase[] };

describe('originOf', () => {
  for (const row of table.originOf) {
    test(JSON.stringify(row.url), () => {
      assert.equal(originOf(row.url), row.expected);
    });
  }
});

describe('canonicalHostOf', () => {
  for (const row of table.canonicalHostOf) {
    test(JSON.stringify(row.url), () => {
      assert.equal(canonicalHostOf(row.url), row.expected);
    });
  }
});

describe('sameSite', () => {
  for (const row of table.sameSite) {
    const mode = row.canonicalHost === true ? ' (canonicalHost)' : '';
    test(`${row.url} vs ${row.origin}${mode}${row.note ? `: ${row.note}` : ''}`, () => {
      const options = row.canonicalHost === undefined ? {} : { canonicalHost: row.canonicalHost };
      assert.equal(sameSite(row.url, row.origin, options), row.expected);
      // The relation is symmetric whenever both sides are http(s) URLs.
      if (originOf(row.url) !== null && originOf(row.origin) !== null) {
        assert.equal(sameSite(row.origin, row.url, options), row.expected);
      }
    });
  }
});
