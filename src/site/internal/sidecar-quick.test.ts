// The quick reading of common sidecars must give exactly what the YAML reading gives, or
// step aside (null). The texts are near the edge of the quick form on purpose: comments,
// quotes, escapes, indicators, case, duplicates, spacing, line ends.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSidecar, parseSidecarYaml, quickSidecar } from './sidecar.ts';

const VALUES = [
  'about/team',
  '/about',
  'a.b_c-d',
  'true',
  'false',
  'True',
  'public',
  'restricted',
  'deny',
  'private',
  '00C0FFEE',
  '0012',
  '12',
  'xyz',
  '"Quoted title (blog 1)"',
  '"with # hash and: colon"',
  '"escaped \\" quote"',
  '"back\\\\slash"',
  '"tab\\tescape"',
  "'single'",
  'a #comment',
  'a: b',
  '-dash',
  '[x]',
  '{a: 1}',
  '*anchor',
  '&a x',
  '!tag x',
  '""',
  '" spaced "',
  'é',
  '"é"',
  '~',
  'null',
  '[members]',
  '[a, b]',
  '[]',
  '[a,b]',
  '[ a ]',
  '[-a]',
  '[a b]',
  '[a, b, ]',
  '[a, [b]]',
  '["a"]',
];
const KEYS = ['id', 'alias', 'access', 'noindex', 'title', 'roles', 'contentUsage', 'Title'];

function texts(): string[] {
  const out: string[] = ['', '\n', '# only a comment\n', 'title: x\ntitle: y\n'];
  for (const key of KEYS) {
    for (const value of VALUES) {
      out.push(`${key}: ${value}\n`, `${key}: ${value}`, `${key}:  ${value}\n`);
      out.push(`${key}: ${value} \n`, `${key}: ${value}\r\n`, ` ${key}: ${value}\n`);
    }
  }
  for (const a of VALUES) {
    for (const b of VALUES.slice(0, 12)) out.push(`title: ${a}\nalias: ${b}\nnoindex: true\n`);
  }
  out.push('id: 00ff\nalias: x\naccess: restricted\nnoindex: false\ntitle: "T"\n');
  out.push('roles: [a]\nroles: [b]\n', 'title: x\nroles: [staff, owner]\naccess: restricted\n');
  out.push('title: "x"\n\nalias: y\n', '---\ntitle: x\n', 'title: x\n...\n');
  return out;
}

test('the quick reading agrees with the YAML reading, or steps aside', () => {
  let quick = 0;
  for (const text of texts()) {
    const fast = quickSidecar(text);
    if (fast === null) continue;
    quick++;
    assert.deepEqual(fast, parseSidecarYaml(text), JSON.stringify(text));
    assert.deepEqual(parseSidecar(text), parseSidecarYaml(text), JSON.stringify(text));
  }
  // The common forms do take the quick way.
  assert.ok(quick > 100, `${quick} texts read quickly`);
  assert.notEqual(
    quickSidecar('title: "Account (blog 3)"\nalias: blog/a-3\nnoindex: true\n'),
    null,
  );
  // So do the common mistakes, reported as the YAML reading reports them.
  const mistaken = 'title: "T"\nnoindex: perhaps\nid: xyz\naccess: private\n';
  const read = quickSidecar(mistaken);
  assert.deepEqual(read, parseSidecarYaml(mistaken));
  assert.deepEqual(
    read?.diagnostics.map((d) => [d.code, d.line]),
    [
      ['sidecar-id', 3],
      ['sidecar-access', 4],
      ['sidecar-noindex', 2],
    ],
  );
  assert.equal(read?.broken, true);
});
