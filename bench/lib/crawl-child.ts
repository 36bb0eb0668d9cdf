import { existsSync, readFileSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compileForChild, howItEnded, spawnNode } from './child-process.ts';
import type { PreloadReport } from './crawl-child-preload.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const PRELOAD = fileURLToPath(new URL('./crawl-child-preload.ts', import.meta.url));
const PEER = fileURLToPath(new URL('./crawl-peer-child.ts', import.meta.url));
/** Must match `MARK` in `crawl-child-preload.ts`. */
const REPORT_MARK = 'crawl-child-report ';

export const WAYMARK_BIN = join(REPO, 'dist', 'cli', 'bin.js');

export interface ChildScripts {
  readonly preload: string;
  readonly peer: string;
  /** False when the build failed and the children run the TypeScript sources. */
  readonly compiled: boolean;
}

/** Compiles the preload and the peer's script into `dir`; falls back to the sources. */
export async function buildChildScripts(dir: string): Promise<ChildScripts> {
  const compiled = await compileForChild(REPO, dir, [
    PRELOAD,
    PEER,
    join(REPO, 'bench', 'peers.d.ts'),
  ]);
  const preload = compiled(PRELOAD);
  const peer = compiled(PEER);
  if (preload === null || peer === null) return { preload: PRELOAD, peer: PEER, compiled: false };
  return { preload, peer, compiled: true };
}

/**
 * Builds waymark's `dist/` when it is missing or older than a source file, so the bench
 * never times stale code. Returns what it did, for the output.
 */
export async function ensureDist(): Promise<string> {
  const built = existsSync(WAYMARK_BIN) ? statSync(WAYMARK_BIN).mtimeMs : 0;
  const sources = (await readdir(join(REPO, 'src'), { recursive: true })).filter(
    (name) => name.endsWith('.ts') && !name.endsWith('.test.ts'),
  );
  const newest = Math.max(...sources.map((name) => statSync(join(REPO, 'src', name)).mtimeMs));
  if (built >= newest) return 'dist/ is up to date with src/';
  const { code } = await spawnNode(
    [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    { cwd: REPO, timeoutMs: 300_000 },
  );
  if (!existsSync(WAYMARK_BIN)) throw new Error(`building dist/ failed (tsc exit code ${code})`);
  return built === 0
    ? 'dist/ was missing: built it (tsc -p tsconfig.build.json)'
    : 'dist/ was older than src/: rebuilt it (tsc -p tsconfig.build.json)';
}

export interface ChildRun {
  /** From spawn to exit, as the parent saw it. */
  readonly wallMs: number;
  readonly report: PreloadReport;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node --import <preload> ...args`; rejects if it fails or outlives `timeoutMs`. */
export function runChild(
  scripts: ChildScripts,
  args: readonly string[],
  timeoutMs: number,
): Promise<ChildRun> {
  return spawnNode(['--import', pathToFileURL(scripts.preload).href, ...args], {
    cwd: REPO,
    timeoutMs,
  }).then((output) => {
    const line = output.stderr.split('\n').find((l) => l.startsWith(REPORT_MARK));
    if (output.code !== 0 || line === undefined) {
      throw new Error(`${args.join(' ')}: ${howItEnded(output)}\n${output.stderr.slice(-3000)}`);
    }
    const report = JSON.parse(line.slice(REPORT_MARK.length)) as PreloadReport;
    const rest = output.stderr.replace(`\n${line}\n`, '');
    return { wallMs: output.wallMs, report, stdout: output.stdout, stderr: rest };
  });
}

/** The `<loc>`s of a sitemap file (an index's parts are read from beside it). */
export function readLocs(path: string): string[] {
  const xml = readFileSync(path, 'utf8');
  const locs = [...xml.matchAll(/<loc>\s*([^<]*?)\s*<\/loc>/g)].map((m) => decodeXml(m[1] ?? ''));
  if (!/<sitemapindex[\s>]/.test(xml)) return locs;
  const dir = join(path, '..');
  return locs.flatMap((loc) => readLocs(join(dir, loc.slice(loc.lastIndexOf('/') + 1))));
}

function decodeXml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi, (entity, name: string) => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    const lower = name.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(Number(lower.slice(1)));
    return named[lower] ?? entity;
  });
}
