import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { NAVMAP_NS } from './navmap-names.ts';
import { parseNavmap } from './parse-navmap.ts';
import { codes } from './test-support/test-outline.ts';

const URL_ = 'https://ex.org/nav/map.xml';

/** A document: the sitemap root with the namespace, `body` inside. */
function doc(body: string): string {
  return `<sitemap xmlns="${NAVMAP_NS}">${body}</sitemap>`;
}

function parse(bytes: Uint8Array, charset?: string) {
  return parseNavmap(bytes, { url: URL_, ...(charset === undefined ? {} : { charset }) });
}

describe('parseNavmap: encodings', () => {
  const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
  const label = (bytes: Uint8Array, charset?: string) =>
    parse(bytes, charset).root?.children[0]?.label;

  test('the HTTP charset overrides the XML declaration', () => {
    const bytes = latin1(`<?xml version="1.0" encoding="utf-8"?>${doc('<item name="Café"/>')}`);
    const tree = parse(bytes, 'ISO-8859-1');
    assert.equal(tree.root?.children[0]?.label, 'Café');
    assert.deepEqual(codes(tree), ['charset-overrides-declaration']);
  });

  test('ISO-8859-1 from the declaration, exactly (0x80-0x9f are not windows-1252)', () => {
    const bytes = latin1(
      `<?xml version="1.0" encoding="ISO-8859-1"?>${doc('<item name="Café \x80"/>')}`,
    );
    assert.equal(label(bytes), 'Café \x80');
  });

  test('a BOM wins over the HTTP charset and the declaration', () => {
    const body = new TextEncoder().encode(
      `<?xml version="1.0" encoding="iso-8859-1"?>${doc('<item name="Grüße"/>')}`,
    );
    assert.equal(label(Uint8Array.of(0xef, 0xbb, 0xbf, ...body), 'iso-8859-1'), 'Grüße');
  });

  test('UTF-16 with a BOM, little- and big-endian', () => {
    const text = `<?xml version="1.0" encoding="UTF-16"?>${doc('<item name="日本"/>')}`;
    const le = [0xff, 0xfe];
    const be = [0xfe, 0xff];
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      le.push(c & 0xff, c >> 8);
      be.push(c >> 8, c & 0xff);
    }
    assert.equal(label(Uint8Array.from(le)), '日本');
    assert.equal(label(Uint8Array.from(be)), '日本');
  });

  test('an encoding the shared decoder lacks is read with TextDecoder', () => {
    const bytes = Uint8Array.of(
      ...latin1(
        `<?xml version="1.0" encoding="windows-1251"?><sitemap xmlns="${NAVMAP_NS}"><item name="`,
      ),
      0xcf,
      0xf0,
      0xe8,
      ...latin1('"/></sitemap>'),
    );
    assert.equal(label(bytes), 'При');
  });

  const utf16 = (text: string, order: 'le' | 'be') => {
    const out = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      out[2 * i + (order === 'le' ? 0 : 1)] = c & 0xff;
      out[2 * i + (order === 'le' ? 1 : 0)] = c >> 8;
    }
    return out;
  };

  test('a UTF-16 label over single-byte text: the bytes decide, with a warning', () => {
    const bytes = new TextEncoder().encode(
      `<?xml version="1.0" encoding="UTF-16"?>${doc('<item name="Grüße"/>')}`,
    );
    for (const charset of [undefined, 'utf-16']) {
      const tree = parse(bytes, charset);
      assert.equal(tree.root?.children[0]?.label, 'Grüße', String(charset));
      assert.deepEqual(codes(tree), ['encoding-mismatch']);
    }
  });

  test('UTF-16 without a BOM: the byte order comes from the bytes', () => {
    const text = doc('<item name="日本"/>');
    // HTTP says utf-16 (no order): read in the order the bytes show, silently.
    for (const order of ['le', 'be'] as const) {
      const tree = parse(utf16(text, order), 'utf-16');
      assert.equal(tree.root?.children[0]?.label, '日本', order);
      assert.deepEqual(codes(tree), []);
    }
    // Nothing says UTF-16: read as UTF-16 all the same, with a warning, not lost.
    const unlabelled = parse(utf16(text, 'be'));
    assert.equal(unlabelled.root?.children[0]?.label, '日本');
    assert.deepEqual(codes(unlabelled), ['encoding-mismatch']);
  });

  test('an HTTP charset nobody knows is reported and ignored; the declaration applies', () => {
    const bytes = latin1(
      `<?xml version="1.0" encoding="iso-8859-1"?>${doc('<item name="Café"/>')}`,
    );
    const tree = parse(bytes, 'x-bogus');
    assert.equal(tree.root?.children[0]?.label, 'Café');
    assert.deepEqual(codes(tree), ['unsupported-encoding']);
  });

  test('invalid UTF-8 becomes U+FFFD, with a warning', () => {
    const [head, tail] = doc('<item name="a!"/>').split('!') as [string, string];
    const bytes = Uint8Array.of(...latin1(head), 0xff, ...latin1(tail));
    const tree = parse(bytes);
    assert.equal(tree.root?.children[0]?.label, 'a\ufffd');
    assert.deepEqual(codes(tree), ['invalid-encoding']);
  });
});
