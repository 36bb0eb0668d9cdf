// The builder writes rule numbers into an array reused from the previous parse: builders
// alive at the same time must not share it, and a file parsed after a larger one must not
// see that file's numbers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseRobots } from '../parse-robots.ts';
import { PolicyBuilder } from './policy-builder.ts';
import { scanLines } from './scan-lines.ts';

const FIRST = 'User-agent: a\nDisallow: /a\nAllow: /a/b\nUser-agent: b\nDisallow: /\n';
const SECOND = 'User-agent: *\nAllow: /x$\nDisallow: /caf%c3%a9\nDisallow: /é\n';

function build(text: string, other: () => void): ReturnType<PolicyBuilder['build']> {
  const builder = new PolicyBuilder(undefined);
  builder.checkDocument(text);
  scanLines(text, false, builder);
  other();
  return builder.build();
}

test('builders alive at the same time keep their own rules', () => {
  let second: ReturnType<PolicyBuilder['build']> | null = null;
  // The second builder is made, fed and built while the first one is open, fed.
  const first = build(FIRST, () => {
    second = build(SECOND, () => {});
  });
  assert.deepStrictEqual(first.groups, parseRobots(FIRST).groups);
  assert.deepStrictEqual((second as unknown as typeof first).groups, parseRobots(SECOND).groups);
});

test('a file parsed after a larger one has only its own rules', () => {
  const large = `User-agent: *\n${'Disallow: /p\n'.repeat(3000)}`;
  assert.equal(parseRobots(large).groups[0]?.rules.length, 3000);
  const small = parseRobots(SECOND);
  assert.deepStrictEqual(
    small.groups[0]?.rules.map(({ directive, pattern, line }) => [directive, pattern, line]),
    [
      ['allow', '/x$', 2],
      ['disallow', '/caf%C3%A9', 3],
      ['disallow', '/%C3%A9', 4],
    ],
  );
  assert.equal(small.isAllowed('/caf%C3%A9', 'bot'), false);
  assert.equal(small.isAllowed('/p', 'bot'), true);
});
