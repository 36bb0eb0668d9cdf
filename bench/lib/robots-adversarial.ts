// Small robots.txt files (about 1 KB) built to be awkward, from a seed, so every run times the same ones:
// many groups, wildcards and `$`, long lines, odd casing, a BOM, CR-only or mixed line ends,
// percent escapes and raw UTF-8, huge user-agent lists, comments, typos and missing colons.
// Each file comes with the URL and agent of the checks made against it.

import { seededRandom } from '../../src/test-support/seeded-random.ts';

export interface AdversarialCheck {
  readonly url: string;
  readonly agent: string;
}

export interface AdversarialFile {
  readonly text: string;
  readonly robotsUrl: string;
  readonly checks: readonly AdversarialCheck[];
}

const ORIGIN = 'https://adversarial.example';
const AGENT_NAMES = ['Googlebot', 'bingbot', 'GPTBot', 'Slurp', 'DuckDuckBot', 'waymarkbot'];
const SEGMENTS = [
  'a',
  'admin',
  'private',
  'search',
  'img',
  'caf%c3%a9',
  'café',
  'x%2Fy',
  'index.html',
];
const KEYS: Record<string, readonly string[]> = {
  'user-agent': ['User-agent', 'user-agent', 'USER-AGENT', 'uSeR-aGeNt', 'User agent', 'useragent'],
  allow: ['Allow', 'allow', 'ALLOW', 'aLLoW'],
  disallow: ['Disallow', 'disallow', 'DISALLOW', 'disalow', 'dissallow', 'DisAllow'],
};
const NOISE = [
  'Crawl-delay: 2',
  'Sitemap: https://adversarial.example/sitemap.xml',
  'Sitemap: /relative-sitemap.xml',
  '# a comment line',
  'Host: adversarial.example',
  'Unicorns: /extinct',
  'this line is not a directive at all',
  'Content-Usage: train-ai=n',
  'Content-Signal: search=yes, ai-train=no',
  '',
];

export function adversarialFiles(
  count: number,
  checksPerFile: number,
  seed = 14,
): AdversarialFile[] {
  const next = seededRandom(seed);
  const int = (n: number): number => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  const chance = (p: number): boolean => next() < p;

  const pathOf = (depth: number): string => {
    let path = '';
    for (let i = 0; i < depth; i++) path += `/${pick(SEGMENTS)}`;
    return path;
  };
  const patternOf = (): string => {
    let pattern = pathOf(1 + int(3));
    if (chance(0.3)) pattern = pattern.replace('/', '/*');
    if (chance(0.3)) pattern += `*${pick(['.php', '.pdf', '?', '=', 'x'])}`;
    if (chance(0.15)) pattern += '*'.repeat(1 + int(6)) + pick(SEGMENTS);
    if (chance(0.25)) pattern += '$';
    if (chance(0.02)) pattern += `/${'q'.repeat(200 + int(1800))}`;
    if (chance(0.05)) pattern = pattern.slice(1);
    return pattern;
  };

  const files: AdversarialFile[] = [];
  for (let f = 0; f < count; f++) {
    const lines: string[] = [];
    const patterns: string[] = [];
    const agents: string[] = [];
    const groups = 1 + int(chance(0.2) ? 30 : 5);
    for (let g = 0; g < groups; g++) {
      const agentCount = chance(0.03) ? 20 + int(100) : 1 + int(3);
      for (let a = 0; a < agentCount; a++) {
        const agent = chance(0.3)
          ? '*'
          : chance(0.6)
            ? pick(AGENT_NAMES)
            : `bot${int(100000)}${chance(0.3) ? '/2.1 (+http://x)' : ''}`;
        agents.push(agent);
        const sep = chance(0.05) ? ' ' : pick([': ', ':', ' :  ', ':\t']);
        lines.push(`${pick(KEYS['user-agent'] as string[])}${sep}${agent}`);
      }
      for (let r = int(8); r >= 0; r--) {
        if (chance(0.15)) lines.push(pick(NOISE));
        const pattern = patternOf();
        patterns.push(pattern);
        const kind = chance(0.35) ? 'allow' : 'disallow';
        const comment = chance(0.1) ? ' # why' : '';
        lines.push(`${pick(KEYS[kind] as string[])}: ${pattern}${comment}`);
      }
      if (chance(0.3)) lines.push('');
    }
    // Now and then a line past Google's 16,663-byte cut.
    if (chance(0.01)) lines.splice(int(lines.length), 0, `Disallow: /${'z'.repeat(17_000)}`);
    const eol = chance(0.15) ? '\r' : chance(0.2) ? '\r\n' : '\n';
    const bom = chance(0.1) ? '\uFEFF' : '';
    // Decoded from its bytes, as a crawler gets robots.txt from a response: a string built by
    // concatenation is a tree of parts in V8, slower to read char by char than the flat
    // string every parser here would meet in use (the same string for all of them).
    const text = Buffer.from(bom + lines.join(eol) + (chance(0.8) ? eol : '')).toString('utf8');

    const checks: AdversarialCheck[] = [];
    for (let c = 0; c < checksPerFile; c++) {
      let path = chance(0.7) && patterns.length > 0 ? pick(patterns) : pathOf(1 + int(4));
      path = path.replace(/\$$/, '').replaceAll('*', pick(['', 'x', '/deep/er']));
      if (!path.startsWith('/')) path = `/${path}`;
      if (chance(0.3)) path += pick(['/more', '.php', '?q=1', '/index.html', '']);
      const agent = chance(0.7) && agents.length > 0 ? pick(agents) : pick(AGENT_NAMES);
      checks.push({ url: new URL(ORIGIN + path).href, agent: productTokenOf(agent) });
    }
    files.push({ text, robotsUrl: `${ORIGIN}/robots.txt`, checks });
  }
  return files;
}

/** The crawler's own token for a user-agent line (`*` checks as an unnamed bot). */
function productTokenOf(agent: string): string {
  const token = /^[A-Za-z_-]*/.exec(agent)?.[0] ?? '';
  return token.length === 0 ? 'somebot' : token;
}
