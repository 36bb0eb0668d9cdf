// 2,000 real robots.txt files (../shared/fixtures/robots/corpus/), read in place as bytes and
// decided by the engine and by the literal port of Google's matcher, which must agree.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fixturePath, needsFixtures } from '../test-support/fixtures.ts';
import {
  type GoogleParseEvent,
  googleReferenceDecide,
  googleReferenceEvents,
} from '../test-support/google-reference-matcher.ts';
import { DEFAULT_MAX_ROBOTS_BYTES, parseRobots } from './index.ts';

const AGENTS = ['Googlebot', 'bingbot', 'waymarkbot'];
const GENERIC_PATHS = [
  '/',
  '/index.html',
  '/robots.txt',
  '/search?q=test',
  '/admin/',
  '/wp-admin/admin-ajax.php',
  '/a;b?c=d',
  '/%E3%81%A4',
];
/** Paths taken from a file's own rules, at most; large files would otherwise dominate the run. */
const DERIVED_PATHS_PER_FILE = 24;

interface CorpusFile {
  readonly name: string;
  readonly bytes: Uint8Array;
}

function readCorpus(): CorpusFile[] {
  const dir = fixturePath('robots/corpus/files');
  return readdirSync(dir)
    .sort()
    .map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(dir, name))) }));
}

/**
 * Paths that sit on and just beside each rule's boundary: the pattern's literal prefix, that
 * prefix less its last character, and the pattern with its wildcards filled in.
 */
function derivedPaths(events: readonly GoogleParseEvent[]): string[] {
  const patterns = [
    ...new Set(events.filter((e) => e.kind !== 'user-agent' && e.value !== '').map((e) => e.value)),
  ];
  const paths = new Set<string>();
  // Spread the picks over the whole file rather than taking its first rules only.
  const stride = Math.max(1, Math.ceil((patterns.length * 3) / DERIVED_PATHS_PER_FILE));
  for (let i = 0; i < patterns.length && paths.size < DERIVED_PATHS_PER_FILE; i += stride) {
    const pattern = patterns[i] ?? '';
    const literal = pattern.split(/[*$]/)[0] ?? '';
    for (const path of [
      literal,
      literal.slice(0, -1),
      pattern.replace(/\$$/, '').replaceAll('*', 'x'),
    ]) {
      paths.add(path.startsWith('/') ? path : `/${path}`);
    }
  }
  return [...paths];
}

describe('real-world robots.txt corpus', needsFixtures('robots/corpus/files'), () => {
  const corpus = readCorpus();

  test('holds 2,000 files', () => assert.equal(corpus.length, 2000));

  test('every file parses from bytes, with well-formed diagnostics', () => {
    for (const { name, bytes } of corpus) {
      const robots = parseRobots(bytes, { url: `https://${name}/robots.txt` });
      for (const d of robots.diagnostics) {
        assert.ok(Number.isInteger(d.line) && d.line >= 1, `${name}: ${JSON.stringify(d)}`);
        assert.ok(Number.isInteger(d.column) && d.column >= 1, `${name}: ${JSON.stringify(d)}`);
      }
    }
  });

  test("decides as Google does for URLs drawn from each file's own rules", () => {
    const mismatches: string[] = [];
    let checked = 0;
    for (const { name, bytes } of corpus) {
      // Google reads a file whole; the engine stops at 500 KiB unless told otherwise.
      const robots = parseRobots(bytes, {
        maxBytes: Math.max(bytes.length, DEFAULT_MAX_ROBOTS_BYTES),
      });
      const events = googleReferenceEvents(bytes);
      const paths = [...new Set([...GENERIC_PATHS, ...derivedPaths(events)])];
      paths.forEach((path, i) => {
        // Both forms: a full URL and a bare path must give the same path to match.
        const url = i % 2 === 0 ? `https://${name}${path}` : path;
        for (const agent of AGENTS) {
          checked++;
          const google = googleReferenceDecide(events, agent, url);
          const allowed = robots.isAllowed(url, agent);
          const why = robots.explain(url, agent);
          if (allowed !== google.allowed || why.allowed !== allowed) {
            mismatches.push(
              `${name} ${agent} ${url}: isAllowed ${allowed}, explain ${why.allowed}, Google ${google.allowed} (line ${google.line})`,
            );
          } else if ((why.rule?.line ?? null) !== google.line) {
            mismatches.push(
              `${name} ${agent} ${url}: explained by line ${why.rule?.line ?? null}, Google decided on line ${google.line}`,
            );
          }
        }
      });
    }
    assert.ok(checked > 100_000, `only ${checked} checks`);
    assert.deepEqual(mismatches.slice(0, 20), [], `${mismatches.length} of ${checked} differ`);
  });
});
