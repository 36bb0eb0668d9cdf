import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseSidecar } from './sidecar.ts';

describe('parseSidecar', () => {
  test('every key', () => {
    const meta = parseSidecar(
      'id: 00C0FFEE\nalias: about/team\naccess: restricted\nroles: [staff, owner]\nnoindex: true\ntitle: Team\n',
    );
    assert.deepEqual(meta, {
      id: '00c0ffee',
      alias: 'about/team',
      access: 'restricted',
      roles: ['staff', 'owner'],
      noindex: true,
      title: 'Team',
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
    ['alias: [unclosed\n', 'sidecar-yaml'],
    ['- a\n- b\n', 'sidecar-shape'],
    ['\u0000\u0001binary', 'sidecar-shape'],
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

  test('unknown keys are warnings, not breakage; an empty sidecar is the defaults', () => {
    const meta = parseSidecar('colour: blue\n');
    assert.equal(meta.broken, false);
    assert.equal(meta.diagnostics[0]?.code, 'sidecar-unknown-key');
    assert.equal(parseSidecar('').access, 'public');
  });
});
