// Each command is imported only when it runs: a short command such as `waymark sitemap parse`
// never loads the crawler, the site server or the report, and the help lists every command
// without loading any.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { COMMANDS } from './main.ts';

const SRC = fileURLToPath(new URL('..', import.meta.url));

/** The project's source folders a run of the CLI with `args` imported. */
function foldersLoadedBy(args: readonly string[]): string[] {
  const script = `
    import { registerHooks } from 'node:module';
    const seen = new Set();
    registerHooks({
      resolve(specifier, context, next) {
        const resolved = next(specifier, context);
        const at = resolved.url.indexOf(${JSON.stringify(`file://${SRC}`)});
        if (at === 0) seen.add(resolved.url.slice(${`file://${SRC}`.length}).split('/')[0]);
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

describe('commands load when they run', () => {
  test('each summary in the top-level help is the loaded command’s own', async () => {
    for (const [name, command] of Object.entries(COMMANDS)) {
      assert.equal(command.summary, (await command.load()).summary, name);
    }
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
});
