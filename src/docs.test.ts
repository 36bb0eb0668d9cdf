// The README is a short front page that opens with the two commands; the reference lives in
// docs/ and bench/README.md; every relative link between them resolves; they speak of the
// product; docs/cli.md covers every flag; package.json says where the project lives; CI runs
// the README's test command.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCliForTest } from './cli/test-support/run-cli.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

const TEST_COMMAND = 'npm ci && npm test';
const MAIN_COMMAND = 'npm run -s waymark -- crawl --serve examples/content --out sitemap.xml';

/** Every Markdown page of the documentation, relative to the repository. */
function pages(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name));
  return ['README.md', 'bench/README.md', ...docs.sort()];
}

/** Markdown without its fenced code blocks, where links and headings are not what they seem. */
function prose(markdown: string): string {
  return markdown.replace(/^( *)(`{3,}|~{3,}).*\n[\s\S]*?^\1\2\s*$/gm, '');
}

/** The anchors GitHub gives a page's headings. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading = ''] of prose(markdown).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

test('the README is a front page under 20 KB that opens with the two commands', () => {
  const readme = read('README.md');
  assert.ok(Buffer.byteLength(readme) <= 20_000, `${Buffer.byteLength(readme)} bytes`);
  const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.equal(firstBlock, `${TEST_COMMAND}\n${MAIN_COMMAND}\n`);
  assert.ok(readme.indexOf('```sh') < readme.indexOf('\n## '), 'the commands come first');
});

test('there is a reference page per capability, for the CLI, and the speed figures', () => {
  const capabilities = ['robots', 'sitemap', 'indexnow', 'http', 'crawl', 'site', 'navmap', 'url'];
  for (const page of [...capabilities, 'cli']) {
    assert.ok(existsSync(join(ROOT, `docs/${page}.md`)), `docs/${page}.md`);
    assert.ok(read('README.md').includes(`(docs/${page}.md)`), `the README links docs/${page}.md`);
  }
  assert.ok(read('README.md').includes('(bench/README.md)'));
});

test('every relative link in the README, docs/ and bench/README.md resolves', () => {
  const broken: string[] = [];
  for (const page of pages()) {
    const text = prose(read(page));
    for (const [, target = ''] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target)) continue;
      const [path = '', anchor] = target.split('#');
      const file = path === '' ? page : normalize(join(dirname(page), path));
      if (!existsSync(join(ROOT, file))) broken.push(`${page}: ${target} (no ${file})`);
      else if (anchor !== undefined && file.endsWith('.md') && !anchors(read(file)).has(anchor))
        broken.push(`${page}: ${target} (no heading #${anchor} in ${file})`);
    }
  }
  assert.deepEqual(broken, []);
});

test('the documentation speaks of the product, not of how it was made', () => {
  const processTalk = /\bthe issue\b|\bissue \d|\breadings\b|\bsee reading\b|registry mirror/i;
  const found = pages().flatMap((page) =>
    read(page)
      .split('\n')
      .flatMap((line, index) => (processTalk.test(line) ? [`${page}:${index + 1}: ${line}`] : [])),
  );
  assert.deepEqual(found, []);
});

test('package.json says where the project, its home page and its issues are', () => {
  const pkg = JSON.parse(read('package.json')) as {
    repository?: { type?: string; url?: string };
    homepage?: string;
    bugs?: { url?: string };
  };
  // The crawler's default User-Agent names https://github.com/waymark: the same place.
  assert.deepEqual(pkg.repository, {
    type: 'git',
    url: 'git+https://github.com/waymark/waymark.git',
  });
  assert.equal(pkg.homepage, 'https://github.com/waymark/waymark#readme');
  assert.deepEqual(pkg.bugs, { url: 'https://github.com/waymark/waymark/issues' });
});

test('.ci/run runs the README test command, with missing outside data an error', () => {
  const lines = read('.ci/run')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'));
  const command = lines.indexOf(TEST_COMMAND);
  const requirement = lines.indexOf('export WAYMARK_REQUIRE_FIXTURES=1');
  assert.ok(command >= 0, `.ci/run does not run "${TEST_COMMAND}"`);
  assert.ok(requirement >= 0 && requirement < command, 'WAYMARK_REQUIRE_FIXTURES=1 is set first');
});

test('docs/cli.md describes every command and every flag of its --help', async () => {
  const cli = read('docs/cli.md');
  const missing: string[] = [];
  const commands = [
    'crawl',
    'crawl status',
    'crawl export',
    'report',
    'robots check',
    'robots lint',
    'robots agents',
    'robots audit',
    'robots generate',
    'sitemap parse',
    'sitemap validate',
    'sitemap write',
    'sitemap diff',
    'indexnow submit',
    'serve',
    'navmap',
  ];
  const listed = (await runCliForTest(['--help'])).stdout;
  for (const [, name = ''] of listed.matchAll(/^ {2}([a-z]+) {2,}/gm)) {
    if (!commands.some((command) => command.split(' ')[0] === name)) missing.push(name);
  }
  for (const command of commands) {
    const start = cli.indexOf(`## \`waymark ${command}\``);
    if (start < 0) {
      missing.push(`a section for waymark ${command}`);
      continue;
    }
    const end = cli.indexOf('\n## ', start + 1);
    const section = cli.slice(start, end < 0 ? undefined : end);
    const help = (await runCliForTest([...command.split(' '), '--help'])).stdout;
    for (const [flag = ''] of help.matchAll(/--[a-z][a-z-]*/g)) {
      if (flag !== '--help' && !section.includes(`\`${flag}`)) missing.push(`${command} ${flag}`);
    }
  }
  assert.deepEqual([...new Set(missing)], []);
});
