import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HtmlTagScanner } from './html-tag-scanner.ts';

/** The names the scanner reports, `<name` for an open and `/name` for a close, and the values of `x` attributes. */
function names(chunks: readonly string[]): string[] {
  const seen: string[] = [];
  const scanner = new HtmlTagScanner({
    attributesOf: () => ['x'],
    open: (name, values) =>
      seen.push(`<${name}${values[0] === undefined ? '' : ` x=${values[0]}`}`),
    close: (name) => seen.push(`/${name}`),
    wantsText: () => false,
    text: () => {},
  });
  for (const chunk of chunks) scanner.write(chunk);
  scanner.end();
  return seen;
}

// Tag and attribute names are remembered by a hash of their characters (no string per tag):
// a remembered name must never stand in for another one, whatever its case or where it is cut.
test('names are lowercased exactly as toLowerCase, whatever was met before', () => {
  const rows: [string[], string[]][] = [
    // `a~` and `b_` have the same hash: the second is not taken for the first.
    [
      ['<a~ x=1></a~><b_ X=2></b_><A~></A~><B_></B_>'],
      ['<a~ x=1', '/a~', '<b_ x=2', '/b_', '<a~', '/a~', '<b_', '/b_'],
    ],
    [['<b_></b_><a~></a~>'], ['<b_', '/b_', '<a~', '/a~']],
    // Attribute names: `X` is `x`; a colliding name is not `x` (`x` is 120 = 3*31 + 27: none printable).
    [['<p X=1 x=2></p>'], ['<p x=1', '/p']],
    // Not ASCII: as toLowerCase (İ becomes two characters), never from the table.
    [['<DİV x=1></dİv>'], ['<di̇v x=1', '/di̇v']],
    [['<BÄ></bä>'], ['<bä', '/bä']],
    // Longer than the remembered names, and a name cut between two chunks.
    [[`<${'Q'.repeat(40)}></${'q'.repeat(40)}>`], [`<${'q'.repeat(40)}`, `/${'q'.repeat(40)}`]],
    [
      ['<SPA', 'N X', '=1></sp', 'an>'],
      ['<span x=1', '/span'],
    ],
    [['<sPaN></SpAn><span></span>'], ['<span', '/span', '<span', '/span']],
  ];
  for (const [chunks, expected] of rows) {
    // Twice: the second time every name is remembered.
    assert.deepEqual(names(chunks), expected, chunks.join('|'));
    assert.deepEqual(names(chunks), expected, chunks.join('|'));
  }
});
