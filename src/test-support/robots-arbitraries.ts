// fast-check generators for the robots.txt property tests: robots.txt bodies (well formed,
// damaged and byte-mangled), the URLs and agents to ask about them, and policies to format.
import fc from 'fast-check';
import type { RobotsPolicy, RobotsPolicyGroup } from '../robots/index.ts';
import type { RobotsPolicyUsage } from '../robots/types.ts';
import { parseUsageStatement } from '../robots/usage-statement.ts';
import { googleEscapePattern } from './google-reference-matcher.ts';

// ---------------------------------------------------------------------------------------
// Generators. Patterns and URLs draw from one vocabulary so that rules actually match.

/** Vocabulary lists written as one space-separated string: shorter than an array literal. */
const words = (text: string): string[] => text.split(' ');

const PATH_PIECES = words(
  '/ / / a b ab fish Fish .php - _ = & ? ; * * $ %2f %2F %e3%81%a4 %E3%81%A4 %41 A %zz % %4 é ツ : + index.htm index.html /index.html @ .',
);
const pathPieceArb = fc.constantFrom(...PATH_PIECES);
export const patternArb = fc
  .tuple(fc.constantFrom('/', '/', '/', '*', ''), fc.array(pathPieceArb, { maxLength: 6 }))
  .map(([head, rest]) => head + rest.join(''));

const TOKENS = words(
  'Googlebot googlebot GOOGLEBOT Googlebot-Image FooBot foo_bot bingbot waymarkbot Bot',
);
const tokenArb = fc.constantFrom(...TOKENS);
const userAgentValueArb = fc.oneof(
  { arbitrary: fc.constant('*'), weight: 4 },
  { arbitrary: tokenArb, weight: 4 },
  tokenArb.map((token) => `${token}/1.0`),
  fc
    .tuple(tokenArb, fc.constantFrom(' ', '/', '*', '1', 'é', '.', '\t'), tokenArb)
    .map(([a, sep, b]) => a + sep + b),
  fc.constantFrom('* junk', '*junk', '*\tx', '**', '', '/1.0', 'Mozilla/5.0 (Googlebot/2.1)'),
);

const USER_AGENT_KEYS = [
  ...words('User-agent user-agent USER-AGENT useragent User-Agents'),
  'User agent',
];
const RULE_KEYS = words(
  'Allow allow ALLOW Allowed Disallow disallow DisAllow dissallow dissalow disalow diasllow disallaw Disallowing Dis-allow Dissalow',
);
const OTHER_KEYS = words(
  'Sitemap site-map Crawl-delay crawl-delay Host Noindex Unicorns User Content-Usage content-usage Content-Signal CONTENT-SIGNAL Content-Usages',
);
const SEPARATORS = [':', ' : ', ':\t', ' ', '\t', '  ', '', '::', ': :'];
// A NUL ends a line for Google, which reads lines as C strings.
const COMMENTS = [' # hi', '#', '# Disallow: /', '#x', '\0', '\0/x', '\0 # y'];
const SPACE = [' ', '\t', ' \v', '\f'];

/** Usually `usual`, sometimes one of the odd variants: each line is damaged in a few places at most. */
const mostly = (usual: string, odd: readonly string[]) =>
  fc.oneof({ arbitrary: fc.constant(usual), weight: 6 }, fc.constantFrom(...odd));

const directiveLine = (keys: string[], value: fc.Arbitrary<string>) =>
  fc
    .tuple(
      mostly('', SPACE),
      fc.constantFrom(...keys),
      mostly(': ', SEPARATORS),
      value,
      mostly('', SPACE),
      mostly('', COMMENTS),
    )
    .map((parts) => parts.join(''));

/** Usage statements (Content-Usage, Content-Signal), some with a path, some malformed. */
export const USAGE_VALUES = [
  'train-ai=n',
  'train-ai=y, search=n',
  '/a train-ai=n, ai-use=y',
  '/ search=y',
  '/fish* ai-train=no',
  'search=yes, ai-train=no, use=reference',
  '/%e3%81%a4\tai-input=yes',
  'Train-AI=N',
  'train-ai',
  'train-ai=n,',
  '/only-a-path',
  '/a',
];
const otherValueArb = fc.constantFrom(
  ...words('https://example.com/sitemap.xml /sitemap.xml 5 0.5 example.com /a'),
  '',
  ...USAGE_VALUES,
);
const anyLineArb = fc.oneof(
  { arbitrary: directiveLine(OTHER_KEYS, otherValueArb), weight: 4 },
  {
    arbitrary: directiveLine(
      [...USER_AGENT_KEYS, ...RULE_KEYS, ...OTHER_KEYS],
      fc.oneof(userAgentValueArb, patternArb, otherValueArb),
    ),
    weight: 3,
  },
  { arbitrary: fc.constantFrom('', '', ' ', '\t', '# comment', '  # User-agent: *'), weight: 4 },
  { arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 12 }), weight: 1 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }), weight: 1 },
);

/**
 * Lines of a robots.txt: mostly groups (user-agent lines, then rules with the odd stray line
 * among them), sometimes lines on their own. Rule lines mostly draw from a small pool of
 * patterns that the URLs are also made from, so that rules match, tie and overlap often.
 */
export const linesArb = (pool: readonly string[]): fc.Arbitrary<string[]> => {
  const ruleLine = directiveLine(RULE_KEYS, fc.oneof(fc.constantFrom(...pool), patternArb));
  const ruleOrStray = fc.oneof({ arbitrary: ruleLine, weight: 6 }, anyLineArb);
  const group = fc
    .tuple(
      fc.array(directiveLine(USER_AGENT_KEYS, userAgentValueArb), { minLength: 1, maxLength: 3 }),
      fc.oneof(
        { arbitrary: fc.array(ruleOrStray, { minLength: 1, maxLength: 6 }), weight: 9 },
        // Large groups too: an engine may switch to an indexed lookup past a few dozen rules.
        fc.array(ruleOrStray, { minLength: 32, maxLength: 64 }),
      ),
    )
    .map(([agents, rules]) => [...agents, ...rules]);
  return fc
    .array(
      fc.oneof(
        { arbitrary: group, weight: 3 },
        anyLineArb.map((line) => [line]),
      ),
      {
        minLength: 1,
        maxLength: 6,
      },
    )
    .map((blocks) => blocks.flat());
};

const lineEndArb = fc.constantFrom('\n', '\n', '\n', '\r\n', '\r\n', '\r', '\n\r');
export const textArb = (pool: readonly string[]) =>
  linesArb(pool).chain((lines) =>
    fc
      .array(lineEndArb, { minLength: lines.length, maxLength: lines.length })
      .chain((ends) =>
        fc
          .boolean()
          .map((endsWithBreak) =>
            lines
              .map((line, i) => line + (i < lines.length - 1 || endsWithBreak ? ends[i] : ''))
              .join(''),
          ),
      ),
  );

type Mutation =
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'replace'; at: number; byte: number };

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    bytes: fc.oneof(
      fc.constantFrom(Uint8Array.of(0), Uint8Array.of(0xef, 0xbb, 0xbf), Uint8Array.of(0x0d)),
      fc.uint8Array({ minLength: 1, maxLength: 4 }),
    ),
  }),
  fc.record({
    kind: fc.constant('delete' as const),
    at: fc.nat(),
    length: fc.integer({ min: 1, max: 8 }),
  }),
  fc.record({
    kind: fc.constant('replace' as const),
    at: fc.nat(),
    byte: fc.integer({ min: 0, max: 255 }),
  }),
);

const BOM_PREFIXES = [
  [],
  [],
  [],
  [0xef, 0xbb, 0xbf],
  [0xef, 0xbb],
  [0xef],
  [0xef, 0x41],
  [0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf],
  [0xbb, 0xbf],
];

function mutate(text: string, bom: readonly number[], mutations: readonly Mutation[]): Uint8Array {
  let bytes = [...bom, ...new TextEncoder().encode(text)];
  for (const m of mutations) {
    const at = m.at % (bytes.length + 1);
    if (m.kind === 'insert') bytes = [...bytes.slice(0, at), ...m.bytes, ...bytes.slice(at)];
    else if (m.kind === 'delete') bytes = [...bytes.slice(0, at), ...bytes.slice(at + m.length)];
    else if (at < bytes.length) bytes[at] = m.byte;
  }
  return Uint8Array.from(bytes);
}

/** What parseRobots is given: a string, or bytes that may be mangled beyond valid UTF-8. */
const bodyArb = (pool: readonly string[]): fc.Arbitrary<string | Uint8Array> =>
  fc.oneof(
    { arbitrary: textArb(pool), weight: 3 },
    {
      arbitrary: fc
        .tuple(
          textArb(pool),
          fc.constantFrom(...BOM_PREFIXES),
          fc.array(mutationArb, { maxLength: 3 }),
        )
        .map(([text, bom, mutations]) => mutate(text, bom, mutations)),
      weight: 4,
    },
    { arbitrary: fc.uint8Array({ maxLength: 120 }), weight: 1 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 80 }), weight: 1 },
  );

const URL_PREFIXES = [
  '',
  '',
  ...words(
    'https://example.com https://example.com http://example.com:8080 //example.com example.com https://example.com#top http://a.example/x://y a:b',
  ),
];
const URL_PIECES = [...PATH_PIECES, '#', '#frag', '/?q=1', '%E3', '%e3', 'x', 'http://d.e/'];
const piecesArb = fc.array(fc.constantFrom(...URL_PIECES), { maxLength: 7 });

/** A path a pattern may match: wildcards filled in, non-ASCII percent-encoded or left raw. */
const pathFromPatternArb = (pool: readonly string[]) =>
  fc
    .tuple(
      fc.constantFrom(...pool),
      fc.constantFrom('', 'x', '/a/', '*'),
      fc.boolean(),
      fc.nat(),
      fc.array(fc.constantFrom(...URL_PIECES), { maxLength: 2 }),
    )
    .map(([pattern, filler, encode, cut, tail]) => {
      let path = pattern.replaceAll('*', filler);
      if (encode) path = percentEncodeNonAscii(path);
      if (cut % 4 === 0) path = path.slice(0, cut % (path.length + 1));
      return path + tail.join('');
    });

export function percentEncodeNonAscii(text: string): string {
  return text.replace(/[^\0-\x7f]/gu, (ch) =>
    [...new TextEncoder().encode(ch)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join(''),
  );
}

const urlArb = (pool: readonly string[]) =>
  fc
    .tuple(
      fc.constantFrom(...URL_PREFIXES),
      fc.oneof(
        piecesArb.map((p) => p.join('')),
        { arbitrary: pathFromPatternArb(pool), weight: 3 },
      ),
    )
    .map(([prefix, path]) => prefix + path);
// Odd agents too ('', 'Googlebot/2.1', '*'): Google compares them whole, and so must we.
export const agentArb = fc.oneof(
  { arbitrary: tokenArb, weight: 4 },
  fc.constantFrom(
    ...words('Googlebot-News bing Mediapartners-Google Googlebot/2.1 * googlebot%20'),
    '',
    'Googlebot ',
  ),
);
export const queriesArb = (pool: readonly string[]) =>
  fc.array(fc.tuple(urlArb(pool), agentArb), { minLength: 1, maxLength: 6 });

/** A body and the URLs and agents to ask about, sharing a pool of patterns. */
export const scenarioArb = fc
  .array(patternArb, { minLength: 1, maxLength: 4 })
  .chain((pool) => fc.tuple(bodyArb(pool), queriesArb(pool)));

// ---------------------------------------------------------------------------------------
// Policies for formatRobots.

// fast-check's records have a null prototype by default, which deepEqual tells apart.
export const PLAIN = { noNullPrototype: true };

const canonicalPatternArb = fc
  .tuple(
    fc.constantFrom('/', '/', '*'),
    fc.array(
      fc.oneof(
        fc.constantFrom(...words('a B / * $ ? ; = & . - ~ : %zz %4'), ' '),
        fc.stringMatching(/^%[0-9A-F]{2}$/),
      ),
      { maxLength: 8 },
    ),
  )
  .map(([head, rest]) => head + rest.join(''))
  // Pieces can join into a lower-case escape ('%4' then 'a'), which reads back upper-cased.
  .filter((p) => p.trim() === p && googleEscapePattern(p) === p);

const usageArb: fc.Arbitrary<RobotsPolicyUsage> = fc
  .tuple(
    fc.constantFrom('content-usage' as const, 'content-signal' as const),
    fc.option(
      canonicalPatternArb.filter((p) => p.startsWith('/') && !p.includes(' ')),
      { nil: undefined },
    ),
    fc.constantFrom(
      'train-ai=n',
      'train-ai=y, ai-use=n, search=y',
      'search=yes, ai-train=no, use=reference',
      'ai-input=no',
      'future-term=y',
      'train-ai=n;x=1, search=y',
    ),
  )
  .filter(([field, , value]) =>
    parseUsageStatement(field, value).problems.every((p) => p.severity === 'info'),
  )
  .map(([field, path, value]) => (path === undefined ? { field, value } : { field, path, value }));

const policyGroupArb: fc.Arbitrary<RobotsPolicyGroup> = fc
  .record(
    {
      userAgents: fc.array(fc.oneof(fc.constant('*'), fc.stringMatching(/^[A-Za-z_-]{1,12}$/)), {
        minLength: 1,
        maxLength: 3,
      }),
      rules: fc.array(
        fc.record(
          {
            directive: fc.constantFrom('allow' as const, 'disallow' as const),
            pattern: fc.oneof({ arbitrary: canonicalPatternArb, weight: 9 }, fc.constant('')),
          },
          PLAIN,
        ),
        { minLength: 1, maxLength: 5 },
      ),
      crawlDelay: fc.option(
        fc.oneof(fc.integer({ min: 0, max: 86_400 }), fc.constantFrom(0.5, 1.25, 10.75)),
        { nil: undefined },
      ),
      usage: fc.array(usageArb, { maxLength: 3 }),
    },
    PLAIN,
  )
  .map(({ crawlDelay, usage, ...group }) => ({
    ...group,
    ...(crawlDelay === undefined ? {} : { crawlDelay }),
    ...(usage.length === 0 ? {} : { usage }),
  }));

export const policyArb: fc.Arbitrary<RobotsPolicy> = fc.record(
  {
    groups: fc.array(policyGroupArb, { maxLength: 4 }),
    sitemaps: fc.uniqueArray(
      fc.webUrl({ withQueryParameters: true }).map((url) => new URL(url).href),
      { maxLength: 3 },
    ),
  },
  PLAIN,
);
