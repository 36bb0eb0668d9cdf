import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// The tokenizer's hot loop (`#parse`) must stay compiled through a whole sitemap: each time V8
// threw it away (a first visit, after compiling, to a rare path such as a tag name or a
// character reference cut by the chunk's end), it compiled the loop again, which cost a cold
// read of 50,000 URLs a fifth of its CPU time and several MB of peak memory. Counted, not
// timed: a child process tokenizes a generated sitemap in 4 KiB pieces with V8's deopt trace
// on, compiling synchronously so the count does not depend on the machine's load.

const TOKENIZER = fileURLToPath(new URL('./xml-tokenizer.ts', import.meta.url));
const SITEMAP_PARSER = fileURLToPath(new URL('../../sitemap/sitemap-parser.ts', import.meta.url));

// Modes: the tokenizer alone; with a stand-in shortcut taking every other entry; and the
// sitemap reader itself, whose shortcut takes the entries without \`&amp;\` (every other one).
// A document whose entries all go the general way for thousands of entries and then turn
// usual costs one deopt where the shortcut is first taken (its branch had never run): once
// per read, not per chunk, and not counted here.
const CHILD = `
const { XmlTokenizer } = await import(process.argv[1]);
const { SitemapParser } = await import(process.argv[2]);
const mode = process.argv[3];
const noop = () => {};
const tokenizer = mode === 'reader'
  ? new SitemapParser({ maxEntries: 100000 }, noop)
  : new XmlTokenizer(
      { onopentag: noop, onclosetag: noop, ontext: noop, onprocessinginstruction: noop, ondepthlimit: noop },
      { maxDepth: 256 },
    );
if (mode === 'shortcut') {
  // Takes every other whole <url> itself, as the sitemap reader takes entries in their usual form.
  tokenizer.shortcut = {
    after: 0x75,
    take: (buf, at) => {
      const end = buf.indexOf('</url>', at);
      return end < 0 || buf.startsWith('<urlset', at) || at % 2 === 1 ? -1 : end + 6;
    },
  };
}
let doc = '<?xml version="1.0" encoding="UTF-8"?>\\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\\n';
for (let i = 0; i < 50000; i++) {
  const usual = mode === 'reader' && i % 2 === 1;
  doc += '<url><loc>https://www.example-shop.com/c/p-' + i + (usual ? '?a=1&b=' : '?a=1&amp;b=') + (i % 7) + '</loc>' +
    '<lastmod>2024-01-' + String(1 + (i % 28)).padStart(2, '0') + '</lastmod></url>\\n';
}
doc += '</urlset>\\n';
for (let at = 0; at < doc.length; at += 4096) tokenizer.write(doc.slice(at, at + 4096));
tokenizer.end();
if (mode === 'reader' && tokenizer.count !== 50000) throw new Error('read ' + tokenizer.count + ' entries');
process.stdout.write('done\\n');
`;

for (const mode of ['tokenizer', 'shortcut', 'reader']) {
  test(`the tokenizer loop is not deoptimised by tags and references cut at chunk edges (${mode})`, async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--no-concurrent-recompilation',
        '--trace-deopt',
        '--trace-opt',
        '--input-type=module',
        '-e',
        CHILD,
        TOKENIZER,
        SITEMAP_PARSER,
        mode,
      ],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    assert.match(stdout, /^done$/m);
    const lines = stdout.split('\n').filter((line) => line.includes('#parse'));
    // The trace names the loop where it compiles it: without that, no deopt line could match
    // either, and the count below would prove nothing.
    assert.ok(
      lines.some((line) => /completed (optimizing|compiling)/.test(line)),
      'the trace shows #parse being optimised',
    );
    const deopts = lines.filter((line) => /deoptimizing/.test(line));
    assert.deepEqual(deopts, []);
  });
}
