// robots.txt: waymark against robots-parser and robots-txt-parse + robots-txt-guard, on 2,000
// real-world files. First agreement, then parse speed, check speed, a pathological pattern,
// parse + one check on generated adversarial files and parse + one check per real file.
// Run with `npm run bench:robots`.

import {
  type Contender,
  parseWaymarkBytes,
  robotsParserPeer,
  robotsTxtGuardPeer,
  waymark,
} from './lib/robots-contenders.ts';
import { AGENTS, loadCorpus } from './lib/robots-corpus.ts';
import { runParseAndCheck } from './lib/robots-parse-check.ts';
import {
  PATHOLOGICAL_LENGTH,
  PATHOLOGICAL_PATTERN,
  runPathological,
} from './lib/robots-pathological.ts';
import {
  formatDuration,
  formatNumber,
  formatRatio,
  formatTable,
  machineLine,
  medianTimes,
  type TimingPlan,
} from './lib/timing.ts';

const MAX_URLS_PER_FILE = 40;
const EXAMPLES_PER_PEER = 5;
const CHECK_TARGET = 10;
const PARSE_TARGET = 3;
const PARSE_PLAN: TimingPlan = { warmups: 2, minRounds: 5, maxRounds: 15, budgetMs: 12_000 };
const CHECK_PLAN: TimingPlan = { warmups: 2, minRounds: 5, maxRounds: 15, budgetMs: 12_000 };
const PATHOLOGICAL_DEADLINE_MS = 5_000;

const started = performance.now();
const corpus = loadCorpus(MAX_URLS_PER_FILE);
const mb = corpus.totalBytes / 1e6;

console.log('robots.txt benchmark: waymark vs robots-parser, robots-txt-parse + robots-txt-guard');
console.log(machineLine());
console.log(
  `Corpus: ${formatNumber(corpus.files.length)} real-world robots.txt files, ${formatNumber(mb, 2)} MB; ` +
    `${formatNumber(corpus.totalUrls)} URLs derived from their rules (at most ${MAX_URLS_PER_FILE} per file) ` +
    `x ${AGENTS.length} agents (${AGENTS.join(', ')}) = ${formatNumber(corpus.checks)} checks`,
);
console.log(
  'Every implementation reads every byte (waymark given maxBytes: Infinity; its default stops at 500 KiB).',
);

const main = waymark(corpus);
const peers = [robotsParserPeer(corpus), robotsTxtGuardPeer(corpus)];
for (const contender of [main, ...peers]) await contender.parseCorpus();

// 1. Agreement
console.log('\n1. Agreement with waymark (isAllowed on every check)\n');
const expected = main.answers();
const disagreements = peers.map((peer) => ({ peer, found: disagreementsWith(peer) }));
console.log(
  formatTable(
    ['peer', 'checks', 'disagree', '%', 'files', "on URLs ending in '?'", 'undefined (off-host)'],
    disagreements.map(({ peer, found }) => [
      peer.name,
      formatNumber(expected.length),
      formatNumber(found.count),
      `${formatNumber((100 * found.count) / expected.length, 2)}%`,
      formatNumber(found.files.length),
      formatNumber(found.emptyQueryCount),
      formatNumber(found.undefinedCount),
    ]),
  ),
);
console.log(
  [
    '',
    'Disagreements are expected and reported, not failed on (all timings use every check).',
    'waymark decides as Google does (RFC 9309 plus Google’s parser); where the peers deviate:',
    '- robots-parser rebuilds the path from a parsed URL, so `/search?` is matched as `/search`;',
    '- Google keeps one group across non-rule lines (`User-agent: *`, `Crawl-delay: 2`,',
    '  `User-agent: Googlebot` is one group); the peers start a new one;',
    '- Google uses an agent’s own group even when it has no rules; robots-parser falls back to `*`;',
    '- robots-parser percent-encodes rules (a space becomes %20); Google matches them as written;',
    '- Google’s `Allow: /x/index.html` also allows `/x/`;',
    '- robots-txt-guard matches a User-agent line as a case-insensitive substring of the agent.',
  ].join('\n'),
);
for (const { peer, found } of disagreements) {
  if (found.files.length === 0) continue;
  console.log(`\nExamples (${peer.name}; first disagreement of files spread over the corpus):`);
  const endsInQuery = (at: Disagreement): boolean => urlOf(at).endsWith('?');
  const examples = [
    ...found.files.filter(endsInQuery).slice(0, 1),
    ...spread(
      found.files.filter((at) => !endsInQuery(at)),
      EXAMPLES_PER_PEER,
    ),
  ].slice(0, EXAMPLES_PER_PEER);
  for (const at of examples) {
    const agent = AGENTS[at.agent] as string;
    const said = (answer: boolean | undefined): string =>
      answer === undefined ? 'undefined' : answer ? 'allow' : 'disallow';
    const peerWhy = peer.describe(at.file, at.url, agent);
    console.log(`  ${agent}  ${urlOf(at)}`);
    console.log(
      `    waymark: ${said(at.expected)} (${main.describe(at.file, at.url, agent)}); ` +
        `${peer.name}: ${said(at.actual)}${peerWhy === '' ? '' : ` (${peerWhy})`}`,
    );
  }
}

// 2. Parse
console.log(
  `\n2. Parse: all ${formatNumber(corpus.files.length)} files per pass (median of rounds after ${PARSE_PLAN.warmups} warm-ups)\n`,
);
const robotsParser = peers[0] as Contender;
const guard = peers[1] as Contender;
const parseTimes = await medianTimes(
  [
    { name: 'waymark', run: () => main.parseCorpus() },
    { name: 'waymark (bytes)', run: () => parseWaymarkBytes(corpus) },
    { name: robotsParser.name, run: () => robotsParser.parseCorpus() },
    { name: guard.name, run: () => guard.parseCorpus() },
  ],
  PARSE_PLAN,
);
const waymarkParseMs = parseTimes.get('waymark') ?? Number.NaN;
const parseInput: Record<string, string> = {
  waymark: 'string',
  'waymark (bytes)': 'Uint8Array',
  [robotsParser.name]: 'string',
  [guard.name]: 'string, as a stream (robots-txt-parse)',
};
console.log(
  formatTable(
    ['implementation', 'input', 'ms/pass', 'MB/s', 'waymark speed-up'],
    [...parseTimes].map(([name, ms]) => [
      name,
      parseInput[name] ?? '',
      formatNumber(ms, 1),
      formatNumber(mb / (ms / 1000), 1),
      name.startsWith('waymark') ? '' : formatRatio(ms / waymarkParseMs),
    ]),
  ),
);
console.log(
  '\nwaymark speed-up = peer time / waymark time: above 1x waymark is faster, below 1x slower.',
);
const parseRatio = (parseTimes.get(robotsParser.name) ?? Number.NaN) / waymarkParseMs;
console.log(
  `\nTarget: parse >= ${PARSE_TARGET}x robots-parser MB/s: ${parseRatio >= PARSE_TARGET ? 'met' : 'NOT met'} (${formatRatio(parseRatio)})`,
);

// 3. Checks
console.log(
  `\n3. isAllowed: ${formatNumber(corpus.checks)} checks per pass on pre-parsed files (median of rounds after ${CHECK_PLAN.warmups} warm-ups)\n`,
);
const checkTimes = await medianTimes(
  [main, ...peers].map((contender) => ({
    name: contender.name,
    run: () => contender.checkCorpus(),
  })),
  CHECK_PLAN,
);
const waymarkCheckMs = checkTimes.get(main.name) ?? Number.NaN;
console.log(
  formatTable(
    ['implementation', 'URL given as', 'ms/pass', 'checks/s', 'per check', 'waymark speed-up'],
    [main, ...peers].map((contender) => {
      const ms = checkTimes.get(contender.name) ?? Number.NaN;
      return [
        contender.name,
        contender.takes,
        formatNumber(ms, 1),
        formatNumber(corpus.checks / (ms / 1000)),
        formatDuration(ms / corpus.checks),
        contender === main ? '' : formatRatio(ms / waymarkCheckMs),
      ];
    }),
  ),
);
const checkRatio = (checkTimes.get(robotsParser.name) ?? Number.NaN) / waymarkCheckMs;
console.log(
  `\nTarget: waymark >= ${CHECK_TARGET}x robots-parser checks/s: ${checkRatio >= CHECK_TARGET ? 'met' : 'NOT met'} (${formatRatio(checkRatio)})`,
);

// 4. Pathological pattern
console.log(
  `\n4. Pathological pattern: Disallow: ${PATHOLOGICAL_PATTERN} vs a path of ${formatNumber(PATHOLOGICAL_LENGTH)} characters ('/' then 'a's, no 'b')\n`,
);
const pathological = await runPathological(PATHOLOGICAL_DEADLINE_MS);
const waymarkPathologicalMs = pathological[0]?.msPerCheck ?? Number.NaN;
console.log(
  formatTable(
    ['implementation', 'per check', 'answer', 'waymark speed-up'],
    pathological.map((result) => [
      result.name,
      result.msPerCheck === null
        ? `stopped after ${formatDuration(PATHOLOGICAL_DEADLINE_MS)}`
        : formatDuration(result.msPerCheck),
      result.allowed === undefined ? '-' : result.allowed ? 'allow' : 'disallow',
      result.name === 'waymark'
        ? ''
        : result.msPerCheck === null
          ? `> ${formatRatio(PATHOLOGICAL_DEADLINE_MS / waymarkPathologicalMs)}`
          : formatRatio(result.msPerCheck / waymarkPathologicalMs),
    ]),
  ),
);
for (const result of pathological) {
  if (result.msPerCheck !== null || result.growth.length === 0) continue;
  const steps = result.growth.map((g) => `${g.length} chars ${formatDuration(g.ms)}`).join(', ');
  console.log(`\n${result.name} (one check each, growing path): ${steps}; then stopped.`);
}
console.log(
  '\nwaymark matches a pattern as a chain of indexOf calls (linear in the path); robots-parser ' +
    'tracks every partial match length (pattern length x path length); robots-txt-guard runs ' +
    'a RegExp with one .* per *, which backtracks through every way to split the path.',
);
// 5 and 6. Parse + one check per file
await runParseAndCheck(corpus);

console.log(`\nTotal bench time: ${formatDuration(performance.now() - started)}`);

interface Disagreement {
  readonly file: number;
  readonly url: number;
  readonly agent: number;
  readonly expected: boolean | undefined;
  readonly actual: boolean | undefined;
}

/** Counts where `peer` differs from waymark; keeps the first disagreement of each file. */
function disagreementsWith(peer: Contender): {
  count: number;
  emptyQueryCount: number;
  undefinedCount: number;
  files: Disagreement[];
} {
  const actual = peer.answers();
  let k = 0;
  let count = 0;
  let emptyQueryCount = 0;
  let undefinedCount = 0;
  const files: Disagreement[] = [];
  corpus.files.forEach((file, f) => {
    let first: Disagreement | null = null;
    for (let u = 0; u < file.urls.length; u++) {
      for (let a = 0; a < AGENTS.length; a++, k++) {
        if (actual[k] === undefined) undefinedCount++;
        if (actual[k] === expected[k]) continue;
        count++;
        if (file.urls[u]?.endsWith('?')) emptyQueryCount++;
        first ??= { file: f, url: u, agent: a, expected: expected[k], actual: actual[k] };
      }
    }
    if (first !== null) files.push(first);
  });
  return { count, emptyQueryCount, undefinedCount, files };
}

function urlOf(at: Disagreement): string {
  return corpus.files[at.file]?.urls[at.url] ?? '';
}

/** Up to `n` items spread evenly over `items`. */
function spread<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)] as T);
}
