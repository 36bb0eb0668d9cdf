// Each command is imported only when it runs: a short command such as `waymark sitemap parse`
// never loads the crawler, the site server or the report, and the help lists every command
// without loading any.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SITEMAP_COMMANDS } from './commands/sitemap.ts';
import { COMMANDS } from './main.ts';
import { runCliForTest } from './test-support/run-cli.ts';

const SRC = fileURLToPath(new URL('..', import.meta.url));

/**
 * What a run of the CLI with `args` imported: the project's source files (paths under
 * src/) and Node's built-in modules (`node:http`).
 */
function modulesLoadedBy(args: readonly string[]): string[] {
  const script = `
    import { registerHooks } from 'node:module';
    const seen = new Set();
    registerHooks({
      resolve(specifier, context, next) {
        const resolved = next(specifier, context);
        const at = resolved.url.indexOf(${JSON.stringify(`file://${SRC}`)});
        if (at === 0) seen.add(resolved.url.slice(${`file://${SRC}`.length}));
        else if (resolved.url.startsWith('node:')) seen.add(resolved.url);
        return resolved;
      },
    });
    const { runCliForTest } = await import(${JSON.stringify(`${SRC}cli/test-support/run-cli.ts`)});
    const result = await runCliForTest(${JSON.stringify(args)});
    if (result.code !== 0) throw new Error(result.stderr);
    process.stdout.write(JSON.stringify([...seen].sort()));
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  assert.equal(child.status, 0, child.stderr);
  return JSON.parse(child.stdout) as string[];
}

/** `commands` with each name prefixed. */
function prefixed<T>(prefix: string, commands: Readonly<Record<string, T>>): Record<string, T> {
  return Object.fromEntries(
    Object.entries(commands).map(([name, value]) => [prefix + name, value]),
  );
}

/** The project's source folders a run of the CLI with `args` imported. */
function foldersLoadedBy(args: readonly string[]): string[] {
  const folders = modulesLoadedBy(args)
    .filter((module) => !module.startsWith('node:'))
    .map((path) => path.split('/')[0] ?? path);
  return [...new Set(folders)].sort();
}

describe('commands load when they run', () => {
  test('each summary in the top-level help is the loaded command’s own', async () => {
    const lazy = { ...COMMANDS, ...prefixed('sitemap ', SITEMAP_COMMANDS) };
    for (const [name, command] of Object.entries(lazy)) {
      assert.equal(command.summary, (await command.load()).summary, name);
    }
  });

  test('every summary a help lists is written alike: lower case, no full stop', async () => {
    const listed: string[] = [];
    for (const group of [[], ['robots'], ['indexnow'], ['sitemap']]) {
      const help = (await runCliForTest([...group, '--help'])).stdout;
      const commands = help.slice(help.indexOf('Commands:\n'), help.indexOf('\n\nRun '));
      listed.push(...commands.split('\n').slice(1));
    }
    assert.ok(listed.length > 15, listed.join('\n'));
    for (const line of listed) assert.match(line, /^ {2}[a-z-]+ +[a-z].*[^.]$/);
  });

  test('the top-level help loads no command', () => {
    assert.deepEqual(foldersLoadedBy(['--help']), ['cli', 'shared']);
  });

  test('a robots.txt command loads the robots engine and nothing of the crawler or site', () => {
    const loaded = foldersLoadedBy(['robots', 'generate', '--purpose', 'ai-training=disallow']);
    assert.ok(loaded.includes('robots'), loaded.join());
    for (const folder of ['crawl', 'site', 'report', 'indexnow', 'navmap']) {
      assert.ok(!loaded.includes(folder), `${folder} loaded: ${loaded.join()}`);
    }
  });

  test('the crawl command loads the report and the site server only when asked for', () => {
    const loaded = foldersLoadedBy(['crawl', '--help']);
    assert.ok(loaded.includes('crawl'), loaded.join());
    for (const folder of ['report', 'site']) {
      assert.ok(!loaded.includes(folder), `${folder} loaded: ${loaded.join()}`);
    }
  });

  test('reading a sitemap file loads neither the HTTP client nor the other sitemap commands', () => {
    const dir = mkdtempSync(join(tmpdir(), 'waymark-lazy-'));
    try {
      const file = join(dir, 'sitemap.xml');
      writeFileSync(
        file,
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url></urlset>',
      );
      const loaded = modulesLoadedBy(['sitemap', 'parse', file]);
      assert.ok(loaded.includes('cli/commands/sitemap-parse.ts'), loaded.join());
      for (const module of [
        'http/index.ts',
        'node:http',
        'node:https',
        'node:dns',
        'cli/commands/sitemap-diff.ts',
        'cli/commands/sitemap-validate.ts',
        'cli/commands/sitemap-write.ts',
      ]) {
        assert.ok(!loaded.includes(module), `${module} loaded: ${loaded.join()}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
