// Line numbers in plain-text sitemaps: any line ending (LF, CR, CRLF, a CRLF split across
// chunks), in the whitespace before the first URL as after it, fed in random pieces.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SitemapParser } from '../sitemap-parser.ts';

/** Where each text-sitemap problem is reported, fed in `pieces`. */
function problemLines(pieces: readonly string[]): number[] {
  const parser = new SitemapParser({}, () => {});
  for (const piece of pieces) parser.write(piece);
  parser.end();
  return parser.diagnostics.filter((d) => d.code === 'relative-loc').map((d) => d.line);
}

test('line numbers count every line ending, however the text is split', () => {
  const blank = fc
    .array(fc.constantFrom(' ', '\t', '\r', '\n', '\r\n'), { maxLength: 12 })
    .map((parts) => parts.join(''));
  const body = fc
    .array(fc.tuple(fc.constantFrom('https://a.example/', 'bad'), blank), {
      minLength: 1,
      maxLength: 6,
    })
    .map((lines) => lines.map(([text, after]) => `${text}\n${after}`).join(''));
  fc.assert(
    fc.property(blank, body, fc.array(fc.nat(), { maxLength: 8 }), (head, rest, cuts) => {
      const text = `${head}https://a.example/start\n${rest}`;
      // The expected numbers, from splitting the whole text on line endings.
      const expected = text
        .split(/\r\n|\r|\n/)
        .flatMap((line, k) => (line.trim() === 'bad' ? [k + 1] : []));
      const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
      const pieces = [0, ...at].map((from, k) => text.slice(from, at[k] ?? text.length));
      assert.deepEqual(problemLines([text]), expected, 'whole');
      assert.deepEqual(problemLines(pieces), expected, JSON.stringify(pieces));
      assert.deepEqual(problemLines(text.split('')), expected, 'by character');
    }),
    { seed: 20_261_124, numRuns: 2000 },
  );
});
