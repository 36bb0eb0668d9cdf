import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { DiagnosticLog } from './diagnostic-log.ts';

/** Line and column of `offset` in `text`, the slow and obvious way. */
function naivePosition(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

test('positions match a count over the whole text, however the text was split', () => {
  const text = fc
    .array(fc.constantFrom('a', 'b', '\n', '<url>', '\r\n', 'é'), { maxLength: 400 })
    .map((parts) => parts.join(''));
  fc.assert(
    fc.property(text, fc.array(fc.nat(), { maxLength: 8 }), fc.nat(), (value, cuts, pick) => {
      const log = new DiagnosticLog();
      let from = 0;
      for (const cut of [...cuts].sort((a, b) => a - b)) {
        const to = Math.min(cut % (value.length + 1), value.length);
        if (to <= from) continue;
        log.addText(value.slice(from, to));
        from = to;
      }
      log.addText(value.slice(from));
      const offset = value.length === 0 ? 0 : pick % (value.length + 1);
      assert.deepEqual(log.position(offset), naivePosition(value, offset));
    }),
    { numRuns: 2_000 },
  );
});

test('far into a long document, positions stay exact for recent text', () => {
  const log = new DiagnosticLog();
  const line = `<url><loc>https://example.com/${'x'.repeat(80)}</loc></url>\n`;
  let text = '';
  for (let i = 0; i < 5_000; i++) {
    log.addText(line);
    text += line;
  }
  const offset = text.length - line.length + 5;
  assert.deepEqual(log.position(offset), { line: 5_000, column: 6 });
  assert.deepEqual(log.position(offset), naivePosition(text, offset));
});

test('positions stay exact when the ring grows after it has wrapped, and once it is full', () => {
  // Long lines first: the window forgets old breaks, so the ring's start moves. Then short
  // lines: more breaks in the window than the ring holds, so it grows from a moved start,
  // up to its cap, past which it forgets the oldest.
  const log = new DiagnosticLog();
  let text = '';
  const add = (piece: string) => {
    log.addText(piece);
    text += piece;
  };
  for (let i = 0; i < 1_000; i++) add(`${'l'.repeat(199)}\n`);
  for (let i = 0; i < 20_000; i++) {
    add('a\n');
    if (i % 97 !== 0 || (i > 3_000 && i % 1_999 !== 0)) continue;
    // Offsets across the remembered stretch: the oldest breaks are the ones a grow moves.
    for (const back of [1, 300, 1_000, 3_000, 10_000, 60_000]) {
      const offset = text.length - back;
      assert.deepEqual(log.position(offset), naivePosition(text, offset), `${i}: ${back} back`);
    }
  }
  for (const back of [1, 2, 100, 5_000, 16_000]) {
    const offset = text.length - back;
    assert.deepEqual(log.position(offset), naivePosition(text, offset), `${back} back`);
  }
});
