import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_SIDECAR_ALIASES, parseSidecar } from './sidecar.ts';

describe('parseSidecar', () => {
  test('every key', () => {
    const meta = parseSidecar(
      'id: 00C0FFEE\nalias: about/team\naccess: restricted\nroles: [staff, owner]\nnoindex: true\ntitle: Team\ncontentUsage: train-ai=n, search=y\n',
    );
    assert.deepEqual(meta, {
      id: '00c0ffee',
      alias: 'about/team',
      access: 'restricted',
      roles: ['staff', 'owner'],
      noindex: true,
      title: 'Team',
      contentUsage: 'train-ai=n, search=y',
      broken: false,
      diagnostics: [],
    });
  });

  const BROKEN: [text: string, code: string][] = [
    ['id: xyz\n', 'sidecar-id'],
    ['id: 12\n', 'sidecar-id'],
    ['alias: [a, b]\n', 'sidecar-alias'],
    ['access: private\n', 'sidecar-access'],
    ['roles: staff\n', 'sidecar-roles'],
    ['noindex: maybe\n', 'sidecar-noindex'],
    ['title: [x]\n', 'sidecar-title'],
    ['contentUsage: [train-ai=n]\n', 'sidecar-content-usage'],
    ['contentUsage: "train ai=n"\n', 'sidecar-content-usage'],
    ['contentUsage: "train-ai=n\\r\\nSet-Cookie: a=b"\n', 'sidecar-content-usage'],
    ['contentUsage: ""\n', 'sidecar-content-usage'],
    ['alias: [unclosed\n', 'sidecar-yaml'],
    ['- a\n- b\n', 'sidecar-shape'],
    ['\u0000\u0001binary', 'sidecar-shape'],
    // Read while being saved in place (emptied first), or left without keys: withheld.
    ['', 'sidecar-empty'],
    ['\n\n', 'sidecar-empty'],
    ['# access to come\n', 'sidecar-empty'],
    // Unknown keys that surely meant to hide the page.
    ['Access: deny\n', 'sidecar-unknown-key'],
    ['ACCESS: deny\nalias: about\n', 'sidecar-unknown-key'],
    ['\u0430ccess: deny\n', 'sidecar-unknown-key'],
    ['\uff41\uff43\uff43\uff45\uff53\uff53: deny\n', 'sidecar-unknown-key'],
    ['\u0410ccess: deny\n', 'sidecar-unknown-key'],
    ['acc\u200bess: deny\n', 'sidecar-unknown-key'],
    ['acc\u00adess: deny\n', 'sidecar-unknown-key'],
    ['"access\u00a0": deny\n', 'sidecar-unknown-key'],
    ['NoIndex: true\n', 'sidecar-unknown-key'],
    ['draft: true\n', 'sidecar-unknown-key'],
    ['Draft: yes\n', 'sidecar-unknown-key'],
    ['published: false\n', 'sidecar-unknown-key'],
    ['private: true\n', 'sidecar-unknown-key'],
  ];
  for (const [text, code] of BROKEN) {
    test(`${code}: ${JSON.stringify(text)}`, () => {
      const meta = parseSidecar(text);
      assert.equal(meta.broken, true);
      assert.ok(
        meta.diagnostics.some((d) => d.code === code && d.severity === 'error'),
        JSON.stringify(meta.diagnostics),
      );
    });
  }

  test('an alias without its anchor or past the alias limit: a diagnostic at the alias, never a throw', () => {
    const CASES: [text: string, line: number, column: number][] = [
      ['alias: a\ntitle: *x\n', 2, 8],
      ['roles: &r [a, b]\nalias: *r\ntitle: *nope\n', 3, 8],
      [
        `r: &r [a]\nroles: [${Array(MAX_SIDECAR_ALIASES + 1)
          .fill('*r')
          .join(', ')}]\n`,
        2,
        9,
      ],
    ];
    for (const [text, line, column] of CASES) {
      const meta = parseSidecar(text);
      assert.equal(meta.broken, true, text);
      const error = meta.diagnostics.find((d) => d.severity === 'error');
      assert.equal(error?.code, 'sidecar-yaml', text);
      assert.deepEqual([error?.line, error?.column], [line, column], text);
    }
    // Within the limit, aliases are plain YAML.
    assert.deepEqual(parseSidecar('r: &r staff\nroles: [*r, *r]\n').roles, ['staff', 'staff']);
  });

  test('key errors are reported at their key, syntax errors where they are', () => {
    const CASES: [text: string, code: string, line: number][] = [
      ['alias: about\n\naccess: private\n', 'sidecar-access', 3],
      ['alias: about\nalias: team\n', 'sidecar-yaml', 2],
      ['alias: about\n\ttitle: x\n', 'sidecar-yaml', 2],
    ];
    for (const [text, code, line] of CASES) {
      const meta = parseSidecar(text);
      assert.deepEqual(
        meta.diagnostics.map((d) => [d.code, d.line]),
        [[code, line]],
        text,
      );
    }
  });

  test('other unknown keys are warnings, not breakage', () => {
    for (const text of ['colour: blue\n', 'titre: Accueil\n', 'accessible: yes\n']) {
      const meta = parseSidecar(text);
      assert.equal(meta.broken, false, text);
      assert.deepEqual(
        meta.diagnostics.map((d) => [d.code, d.severity]),
        [['sidecar-unknown-key', 'warning']],
        text,
      );
    }
  });

  test('a key in other letters says which key it looks like', () => {
    const messages = ['Access: deny\n', '\u0430ccess: deny\n', 'draft: true\n'].map(
      (text) => parseSidecar(text).diagnostics[0]?.message,
    );
    assert.deepEqual(messages, [
      'unknown key "Access": keys are written "access"',
      'unknown key "\u0430ccess" looks like "access" but is written with other letters',
      'unknown key "draft": waymark hides a document with access: deny (or restricted), and reads no "draft"',
    ]);
  });
});
