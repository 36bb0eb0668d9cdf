// The live site handler: waymark's `createSiteHandler` over a generated content root of
// 50,000 Markdown documents, against the same bytes held in memory by plain Node `http`
// (the reference of the target) and served as static files by it, each server in a process
// of its own, loaded by autocannon from this one. First the cold start of the live handler
// (spawn to its first complete /sitemap.xml); then all servers must give byte-identical
// answers; then requests/s, latency and throughput side by side for /sitemap.xml (one document of some 46,000 URLs under the default limits),
// for an index and one of its parts (maxUrls 10,000), and for /robots.txt; then whether the
// handler is still live (a document added after the runs shows up) and the servers' peak
// memory.
// Run with `npm run bench:site` (about 1.5 minutes); `-- --duration <s>` (measured seconds
// per server and path, default 6, in `-- --rounds <n>` alternating rounds, default 3, after
// `-- --warmup <s>`, default 2), `-- --connections <n>` (10), `-- --docs <n>` (50,000);
// `-- --profile` adds a CPU profile of the live handler under the same load.

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { numberOption } from './lib/number-option.ts';
import {
  buildServerScripts,
  type ServerScripts,
  startLive,
  startMemory,
  startStatic,
} from './lib/site-children.ts';
import { addDocument, type ContentSummary, generateContentRoot } from './lib/site-content.ts';
import { type LoadPlan, measure, measureSideBySide } from './lib/site-load.ts';
import { profileTables, summariseProfile } from './lib/site-profile.ts';
import {
  formatMB,
  formatSize,
  loadTable,
  type Measured,
  ratioOf,
  verdict,
} from './lib/site-report.ts';
import type { ServerHandle, ServerUsage } from './lib/site-server.ts';
import { compareAnswers, getRaw, snapshot } from './lib/site-snapshot.ts';
import {
  formatDuration,
  formatNumber,
  formatRatio,
  formatTable,
  machineLine,
} from './lib/timing.ts';

const DOCS = numberOption('--docs', 50_000);
const PLAN: LoadPlan = {
  connections: numberOption('--connections', 10),
  durationS: numberOption('--duration', 6),
  rounds: Math.max(1, numberOption('--rounds', 3)),
  warmupS: numberOption('--warmup', 2),
};
const PROFILE = process.argv.includes('--profile');
const TARGET = 0.5;
/** Spawn to the first complete /sitemap.xml of the live handler, ms. */
const COLD_START_TARGET_MS = 1500;
/** Peak RSS of the live handler once it has answered, before and after the load runs. */
const RSS_BEFORE_TARGET = 150e6;
const RSS_AFTER_TARGET = 250e6;
const INDEX_MAX_URLS = 10_000;
/** How long the live handler may take to list a document added while it runs. */
const LIVE_WAIT_MS = 30_000;
const LIVE_POLL_MS = 50;

interface Setup {
  readonly name: string;
  readonly config: { readonly maxUrls?: number };
  readonly paths: readonly { readonly path: string; readonly judged: boolean }[];
}

/** The default limits, and an index of parts of `INDEX_MAX_URLS` (fewer on a small root). */
function setupsFor(listed: number): readonly Setup[] {
  const maxUrls =
    listed > 2 * INDEX_MAX_URLS ? INDEX_MAX_URLS : Math.max(1, Math.floor(listed / 2));
  return [
    {
      name: 'default limits',
      config: {},
      paths: [
        { path: '/sitemap.xml', judged: true },
        { path: '/robots.txt', judged: false },
      ],
    },
    {
      name: `index (maxUrls ${formatNumber(maxUrls)})`,
      config: { maxUrls },
      paths: [
        { path: '/sitemap_index.xml', judged: true },
        { path: '/sitemaps/sitemap-0001.xml', judged: true },
      ],
    },
  ];
}

interface Memory {
  readonly setup: string;
  /** `live, V8 defaults`: the same handler in a process that keeps V8's defaults. */
  readonly server: 'live' | 'live, V8 defaults' | 'memory' | 'static';
  readonly atStart: ServerUsage;
  /** Once it has answered each path once (for the live handler: after its first scan). */
  readonly ready: ServerUsage;
  readonly atEnd: ServerUsage;
}

const started = performance.now();
const root = mkdtempSync(join(tmpdir(), 'waymark-bench-site-'));
const contentDir = join(root, 'content');
mkdirSync(contentDir);
const open: ServerHandle[] = [];

try {
  console.log(
    'Site benchmark: the live site handler vs the same bytes held in memory and as static files',
  );
  console.log(`${machineLine()}; load average ${loadLine()}`);
  const content = await generateContentRoot(contentDir, DOCS);
  printContent(content);
  const setups = setupsFor(content.listed);
  const scripts = await buildServerScripts(join(root, 'child'));
  console.log(
    [
      '',
      'Each server runs in a process of its own on 127.0.0.1; autocannon loads it from the bench',
      `process: ${PLAN.connections} connections, keep-alive, no pipelining; per path ${PLAN.warmupS} s ` +
        `of warm-up each, then ${PLAN.durationS} s measured each, in ${PLAN.rounds} alternating rounds ` +
        '(live, memory, static, live, ...).',
      '  live    createSiteHandler({ root, config }) through toNodeListener, on node:http, in a',
      '          process with the V8 setting `waymark serve` makes for itself (see docs/site.md);',
      "          then alone, the same in a process with V8's defaults (for memory and CPU only)",
      "  memory  node:http holding each path's bytes (saved from the live handler) in memory:",
      '          Content-Type, Content-Length, Last-Modified, ETag, one end(bytes); the reference',
      "  static  node:http serving each path's bytes from a file: stat, Content-Type,",
      '          Content-Length, Last-Modified, ETag, fs.createReadStream piped out',
      scripts.compiled
        ? "Both run JavaScript compiled by the project's tsc (waymark as its dist/ ships)."
        : 'The build of the server scripts failed: both run the TypeScript sources.',
    ].join('\n'),
  );

  const measured: Measured[] = [];
  const memory: Memory[] = [];
  const notes: string[] = [];
  const colds: Cold[] = [];
  const defaults: DefaultsRun[] = [];
  for (const [i, setup] of setups.entries()) {
    measured.push(
      ...(await runSetup(scripts, setup, i, content, { memory, notes, colds, defaults })),
    );
  }

  console.log(
    `\n2. Load: requests/s, latency and throughput (${PLAN.connections} connections, ${PLAN.durationS} s ` +
      `each in ${PLAN.rounds} rounds)\n`,
  );
  for (const setup of setups) {
    console.log(`${setup.name}:`);
    console.log(loadTable(measured.filter((m) => m.setup === setup.name)));
    console.log('');
  }
  console.log(
    [
      'req/s: completed requests over the measured rounds; p50/p99: autocannon latency from sending',
      'a request to the last byte of its answer (whole ms; the median of the rounds); MB/s: response',
      "bytes received; CPU/req: the server process's CPU time (user + system) over the rounds divided",
      'by its requests, the figure that moves least between runs on a shared machine; server CPU and',
      'autocannon CPU: CPU time over wall time of each process (100% is one core).',
      '',
      `The machine's load average after the runs: ${loadLine()}; above the core count, other`,
      'processes were taking CPU from the servers.',
      '',
      verdict(measured, TARGET),
    ].join('\n'),
  );

  console.log('\n3. Memory of each server process\n');
  console.log(
    formatTable(
      ['setup', 'server', 'at start', 'each path answered once', 'after the load runs'],
      memory.map((m) => [
        m.setup,
        m.server,
        formatMB(m.atStart.peakRss),
        formatMB(m.ready.peakRss),
        formatMB(m.atEnd.peakRss),
      ]),
    ),
  );
  console.log(
    '\nPeak RSS so far (Linux VmHWM of the whole process): at start, once it listens; then once ' +
      'each path has been answered (and compared) once, which for the live handler includes its ' +
      'first scan of the content root; then after every load run of its setup.',
  );
  console.log(`\n${defaultsLines(measured, defaults).join('\n')}`);
  if (notes.length > 0) console.log(`\n${notes.join('\n')}`);

  if (PROFILE) await profileLive(scripts, setups);

  console.log(`\n${targetLines(measured, memory, colds).join('\n')}`);
} finally {
  await Promise.allSettled(open.map((server) => server.close()));
  rmSync(root, { recursive: true, force: true });
  console.log(`\nTotal bench time: ${formatDuration(performance.now() - started)}`);
}

/** The live handler's start: from spawn to its first complete answer of the first path. */
interface Cold {
  readonly setup: string;
  readonly path: string;
  /** Wall time from spawn to the last byte of the first answer, ms. */
  readonly ms: number;
  /** The server process's CPU time by then (user + system), ms. */
  readonly cpuMs: number;
  /** Its RSS and peak RSS right then. */
  readonly usage: ServerUsage;
}

interface Collected {
  readonly memory: Memory[];
  readonly defaults: DefaultsRun[];
  readonly notes: string[];
  readonly colds: Cold[];
}

/** One handler configuration: cold start, agreement, then each path under load. */
async function runSetup(
  scripts: ServerScripts,
  setup: Setup,
  index: number,
  content: ContentSummary,
  collected: Collected,
): Promise<Measured[]> {
  const live = track(
    await startLive(scripts, { root: contentDir, config: setup.config, v8: 'serve' }),
  );
  const liveAtStart = await live.usage();
  const paths = setup.paths.map((p) => p.path);
  const first = await getRaw(`${live.origin}${paths[0]}`);
  const coldMs = performance.now() - live.spawnedAt;
  const coldUsage = await live.usage();
  const cold: Cold = {
    setup: setup.name,
    path: paths[0] ?? '',
    ms: coldMs,
    cpuMs: coldUsage.cpuMs,
    usage: coldUsage,
  };
  collected.colds.push(cold);
  const files = await snapshot(live.origin, paths, join(root, 'static', String(index)));
  const held = track(await startMemory(scripts, { files }));
  const baseline = track(await startStatic(scripts, { files }));
  const memoryAtStart = await held.usage();
  const staticAtStart = await baseline.usage();

  console.log(`\n1. Agreement, ${setup.name} (config ${JSON.stringify(setup.config)})\n`);
  const rows: string[][] = [];
  const sizes = new Map<string, number>();
  for (const { path } of setup.paths) {
    for (const [name, other] of [
      ['memory', held],
      ['static', baseline],
    ] as const) {
      const difference = await compareAnswers(path, live.origin, other.origin);
      if (difference !== null) throw new Error(`live and ${name} answers differ: ${difference}`);
    }
    const body = (await getRaw(`${live.origin}${path}`)).body;
    sizes.set(path, body.length);
    rows.push([path, formatSize(body.length), describe(body.toString('utf8'))]);
  }
  const liveReady = await live.usage();
  const memoryReady = await held.usage();
  const staticReady = await baseline.usage();
  console.log(formatTable(['path', 'body', 'content'], rows));
  console.log(
    `The three servers answer each path with the same status, Content-Type and bytes. Cold start ` +
      `of the live server: ${formatDuration(cold.ms)} from spawn to its first complete ${cold.path} ` +
      `(${formatDuration(cold.cpuMs)} of its CPU time; it listened after ${formatDuration(live.startMs)}, ` +
      `the answer took ${formatDuration(first.ms)}); RSS then ${formatMB(coldUsage.rss)}, peak ` +
      `${formatMB(coldUsage.peakRss)}.`,
  );
  if (index === 0) console.log(expectedLine(content, first.body.toString('utf8')));

  const results: Measured[] = [];
  for (const { path, judged } of setup.paths) {
    const [liveResult, memoryResult, staticResult] = await measureSideBySide(
      [live, held, baseline],
      path,
      PLAN,
    );
    if (liveResult === undefined || memoryResult === undefined || staticResult === undefined)
      throw new Error('no result');
    results.push({
      setup: setup.name,
      path,
      bodyBytes: sizes.get(path) ?? 0,
      judged,
      live: liveResult,
      memory: memoryResult,
      static: staticResult,
    });
  }
  if (index === 0) collected.notes.push(await liveCheck(live, paths[0] ?? '/sitemap.xml'));

  collected.memory.push(
    {
      setup: setup.name,
      server: 'live',
      atStart: liveAtStart,
      ready: liveReady,
      atEnd: await live.usage(),
    },
    {
      setup: setup.name,
      server: 'memory',
      atStart: memoryAtStart,
      ready: memoryReady,
      atEnd: await held.usage(),
    },
    {
      setup: setup.name,
      server: 'static',
      atStart: staticAtStart,
      ready: staticReady,
      atEnd: await baseline.usage(),
    },
  );
  await live.close();
  await held.close();
  await baseline.close();
  collected.defaults.push(await runWithV8Defaults(scripts, setup, collected.memory));
  return results;
}

/** What a program with V8's defaults gets: the same handler, answers and load, alone. */
interface DefaultsRun {
  readonly setup: string;
  /** Server CPU time per request under the load, by path. */
  readonly cpuMsPerRequest: ReadonlyMap<string, number>;
}

/**
 * The handler again in a process that keeps V8's defaults (no `waymark serve` flags): its
 * peak RSS once each path has been answered and after the same load on each path, and its
 * CPU per request, for the memory table and the report lines.
 */
async function runWithV8Defaults(
  scripts: ServerScripts,
  setup: Setup,
  memory: Memory[],
): Promise<DefaultsRun> {
  const live = track(
    await startLive(scripts, { root: contentDir, config: setup.config, v8: 'defaults' }),
  );
  const atStart = await live.usage();
  const paths = setup.paths.map((p) => p.path);
  for (const path of paths) await getRaw(`${live.origin}${path}`);
  const ready = await live.usage();
  const cpuMsPerRequest = new Map<string, number>();
  for (const path of paths) {
    cpuMsPerRequest.set(path, (await measure(live, path, PLAN)).serverCpuMsPerRequest);
  }
  memory.push({
    setup: setup.name,
    server: 'live, V8 defaults',
    atStart,
    ready,
    atEnd: await live.usage(),
  });
  await live.close();
  return { setup: setup.name, cpuMsPerRequest };
}

/** CPU per request of the live handler with V8's defaults beside `waymark serve`'s setting. */
function defaultsLines(measured: readonly Measured[], defaults: readonly DefaultsRun[]): string[] {
  const lines = [
    "CPU per request of the live handler with V8's defaults and with waymark serve's setting",
    '(the same load on each path, the defaults run alone after the side-by-side rounds):',
  ];
  for (const run of defaults) {
    for (const [path, cpuMs] of run.cpuMsPerRequest) {
      const tuned = measured.find((m) => m.setup === run.setup && m.path === path);
      if (tuned === undefined) continue;
      const serve = tuned.live.serverCpuMsPerRequest;
      lines.push(
        `  ${run.setup}, ${path}: ${formatNumber(cpuMs, 3)} ms with the defaults, ` +
          `${formatNumber(serve, 3)} ms with waymark serve's setting (${formatRatio(serve / cpuMs)})`,
      );
    }
  }
  return lines;
}

/** One `Target: ... met|NOT met (...)` line per target of issue 14 for the site. */
function targetLines(
  measured: readonly Measured[],
  memory: readonly Memory[],
  colds: readonly Cold[],
): string[] {
  const line = (what: string, met: boolean, detail: string): string =>
    `Target: ${what}: ${met ? 'met' : 'NOT met'} (${detail})`;
  const judged = measured.filter((m) => m.judged);
  const worst = judged.reduce((a, b) => (ratioOf(b) < ratioOf(a) ? b : a));
  const ratio = ratioOf(worst);
  const sitemapCold = colds.find((c) => c.path === '/sitemap.xml') ?? colds[0];
  const live = memory.filter((m) => m.server === 'live');
  const before = Math.max(...live.map((m) => m.ready.peakRss));
  const after = Math.max(...live.map((m) => m.atEnd.peakRss));
  const untuned = memory.filter((m) => m.server === 'live, V8 defaults');
  const untunedBefore = Math.max(...untuned.map((m) => m.ready.peakRss));
  const untunedAfter = Math.max(...untuned.map((m) => m.atEnd.peakRss));
  const lines: string[] = [];
  // The issue's own measure: the full /sitemap.xml under the default limits.
  const full = judged.find((m) => m.path === '/sitemap.xml');
  if (full !== undefined) {
    lines.push(
      line(
        `live /sitemap.xml (${formatSize(full.bodyBytes)}) >= ${formatRatio(TARGET)} the requests/s of the same bytes in memory`,
        ratioOf(full) >= TARGET,
        `${formatRatio(ratioOf(full))}; CPU per request ${formatNumber(full.live.serverCpuMsPerRequest, 2)} ms live, ` +
          `${formatNumber(full.memory.serverCpuMsPerRequest, 2)} ms memory`,
      ),
    );
  }
  lines.push(
    line(
      `live >= ${formatRatio(TARGET)} the requests/s of the same bytes in memory on every sitemap path`,
      ratio >= TARGET,
      `${formatRatio(ratio)}, lowest on ${worst.path}, ${worst.setup}`,
    ),
  );
  if (sitemapCold !== undefined) {
    lines.push(
      line(
        `cold start of ${formatNumber(DOCS)} documents to the first ${sitemapCold.path} <= ${formatDuration(COLD_START_TARGET_MS)}`,
        sitemapCold.ms <= COLD_START_TARGET_MS,
        `${formatDuration(sitemapCold.ms)}, ${formatRatio(sitemapCold.ms / COLD_START_TARGET_MS)} of the limit; ` +
          `${formatDuration(sitemapCold.cpuMs)} CPU`,
      ),
    );
  }
  lines.push(
    line(
      `live peak RSS (waymark serve's V8 setting) before the load runs <= ${formatMB(RSS_BEFORE_TARGET)}`,
      before <= RSS_BEFORE_TARGET,
      `${formatMB(before)}, ${formatRatio(before / RSS_BEFORE_TARGET)} of the limit`,
    ),
    line(
      `live peak RSS (waymark serve's V8 setting) after the load runs <= ${formatMB(RSS_AFTER_TARGET)}`,
      after <= RSS_AFTER_TARGET,
      `${formatMB(after)}, ${formatRatio(after / RSS_AFTER_TARGET)} of the limit`,
    ),
  );
  if (untuned.length > 0) {
    lines.push(
      `Reported, not judged: the same handler in a process with V8's defaults peaks at ` +
        `${formatMB(untunedBefore)} before and ${formatMB(untunedAfter)} after the load ` +
        `(a host program chooses its own V8 flags; docs/site.md says which one to set)`,
    );
  }
  return lines;
}

/** Adds a document while the handler runs; how long until `path` lists it. */
async function liveCheck(live: ServerHandle, path: string): Promise<string> {
  const added = await addDocument(contentDir, String(Date.now()));
  const since = performance.now();
  try {
    while (performance.now() - since < LIVE_WAIT_MS) {
      const body = (await getRaw(`${live.origin}${path}`)).body.toString('utf8');
      if (body.includes(`/${added.alias}</loc>`)) {
        return (
          `Still live: a document added after the runs above was in ${path} ` +
          `${formatDuration(performance.now() - since)} later.`
        );
      }
      await new Promise((resolve) => setTimeout(resolve, LIVE_POLL_MS));
    }
    return `NOT live: a document added after the runs was not in ${path} within ${formatDuration(LIVE_WAIT_MS)}.`;
  } finally {
    await added.remove();
  }
}

/**
 * With `--profile`: the live handler again, from its sources, under the same load after the
 * same warm-up, with V8's profiler running over the measured runs only (not the first scan).
 */
async function profileLive(scripts: ServerScripts, setups: readonly Setup[]): Promise<void> {
  const dir = join(root, 'profile');
  mkdirSync(dir, { recursive: true });
  for (const [i, setup] of setups.entries()) {
    const live = track(
      await startLive(scripts, { root: contentDir, config: setup.config, v8: 'serve' }, true),
    );
    const judged = setup.paths.filter((p) => p.judged).map((p) => p.path);
    await getRaw(`${live.origin}${judged[0]}`);
    for (const path of judged)
      await measure(live, path, { ...PLAN, durationS: PLAN.warmupS, warmupS: 0 });
    const file = join(dir, `${i}.cpuprofile`);
    await live.startProfile();
    const rates: string[] = [];
    for (const path of judged) {
      const result = await measure(live, path, { ...PLAN, warmupS: 0 });
      rates.push(`${path} ${formatNumber(result.requestsPerS, 1)} req/s`);
    }
    await live.stopProfile(file);
    await live.close();
    const { busyMs, lines } = summariseProfile(file);
    console.log(
      `\n4. Profile of the live handler, ${setup.name}: ${rates.join(', ')} while profiled ` +
        `(${formatDuration(busyMs)} busy; from the TypeScript sources)\n`,
    );
    console.log(profileTables(lines, 15));
  }
}

function track(server: ServerHandle): ServerHandle {
  open.push(server);
  return server;
}

/** What a body holds: URLs of a urlset, parts of an index, lines of a text file. */
function describe(body: string): string {
  const count = (pattern: RegExp) => formatNumber(body.match(pattern)?.length ?? 0);
  if (body.includes('<urlset')) return `urlset, ${count(/<url>/g)} URLs`;
  if (body.includes('<sitemapindex')) return `sitemap index, ${count(/<sitemap>/g)} parts`;
  return `text, ${count(/\n/g)} lines`;
}

/** The URLs listed against what the generator expects the handler to list. */
function expectedLine(content: ContentSummary, sitemap: string): string {
  const locs = sitemap.match(/<loc>/g)?.length ?? 0;
  const byId = sitemap.match(/<loc>[^<]*\/id\/[0-9a-f]+<\/loc>/g)?.length ?? 0;
  const same = locs === content.listed && locs - byId === content.listedAliases;
  return (
    `${formatNumber(locs)} URLs listed, ${formatNumber(locs - byId)} of them at an alias; the generator ` +
    `made ${formatNumber(content.listed)} public documents without noindex, ${formatNumber(content.listedAliases)} ` +
    `with an alias${same ? ' (as expected)' : ' (NOT as expected)'}.`
  );
}

function printContent(content: ContentSummary): void {
  console.log(
    [
      '',
      `Content root: ${formatNumber(content.documents)} Markdown documents (${formatMB(content.bytes)} with sidecars) ` +
        `in ${formatNumber(content.folders)} folders 1-4 deep, written in ${formatDuration(content.ms)}`,
      `  ${formatNumber(content.sidecars)} with a sidecar (.meta.yaml, a title each): ${formatNumber(content.aliases)} ` +
        `with an alias, ${formatNumber(content.noindex)} noindex, ${formatNumber(content.restricted)} ` +
        `restricted or denied, ${formatNumber(content.broken)} with an invalid value (so not public)`,
      `  ${formatNumber(content.otherFiles)} other files (images, text, stray YAML); modification times ` +
        'spread over three years; 5% .markdown',
      `  expected in the sitemap: ${formatNumber(content.listed)} documents`,
    ].join('\n'),
  );
}

/** The 1- and 5-minute load averages, beside the number of cores they compare with. */
function loadLine(): string {
  const [one = 0, five = 0] = loadavg();
  return `${formatNumber(one, 2)} / ${formatNumber(five, 2)} (1 / 5 min)`;
}
