// Seeded random robots.txt files built to hit every branch of the scanner and the builder: odd
// keys and casing, misspellings, missing colons, comments and NULs, `%` and non-ASCII values,
// over-long lines, every line end, HTML openings, a BOM, invalid UTF-8 (as bytes).

const KEYS = [
  'User-agent',
  'user-AGENT',
  'useragent',
  'User agent',
  'user-agentx',
  'Allow',
  'aLLOW',
  'allowed',
  'Disallow',
  'DISALLOW',
  'disalow',
  'dissallow',
  'diasllow',
  'disallaw',
  'dissalow',
  'Sitemap',
  'site-map',
  'SITEMAPS',
  'Content-Usage',
  'content-signal',
  'Content-Usages',
  'Crawl-delay',
  'crawl-DELAY',
  'Clean-param',
  'Host',
  'noindex',
  'NoFollow',
  'noarchive',
  'Unicorns',
  'dİsallow',
  '\u212Arawl-delay',
  'usér-agent',
  'u',
  'a',
  'd',
  's',
  'c',
  'h',
  'n',
  '',
  ' ',
  'x y',
];
const SEPARATORS = [':', ': ', ' : ', ':\t', ' ', '\t', '', '::', ' \v: '];
const VALUES = [
  '/',
  '/a/b',
  '*',
  '/*.php$',
  '/a$',
  '$',
  '/caf%c3%a9',
  '/café',
  '/%zz',
  '/100%',
  'Googlebot',
  'Googlebot/2.1 (+http://x)',
  '* junk',
  'bot_-x',
  'https://a.example/sitemap.xml',
  '/rel/map.xml',
  'http://[::1',
  'ftp://x/y',
  '2',
  '2.5',
  '.5',
  '1e3',
  'train-ai=n',
  '/p train-ai=y',
  '/ä search=no',
  'a b',
  '/x # c',
  '/x#c',
  '/x\0y',
  '\0',
  '😀',
  '\uD800',
  '/index.html',
  '/d/index.htm',
  '',
];
/** Openings that make a file an HTML page, or nearly. */
const STARTS = [
  '<!DOCTYPE html>\n',
  ' \t\n<html>',
  '<HEAD>',
  '<?xml v?>',
  '\u00a0<html>',
  '<htm',
  '<p>',
  `${' '.repeat(600)}<html>`,
  '\u2028<!doctype HTML>',
  ' ',
];
const LINE_ENDS = ['\n', '\r', '\r\n', '\n\r', '\n\n'];

export function randomText(next: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const lines: string[] = [];
  const count = Math.floor(next() * 14);
  for (let i = 0; i < count; i++) {
    const r = next();
    let line: string;
    if (r < 0.08) line = pick(['', '   ', '# note', '  # x', '\t']);
    else if (r < 0.12) line = `${pick(KEYS)}${pick(SEPARATORS)}${'é/'.repeat(6000)}`;
    else if (r < 0.16)
      line = `${pick(KEYS)}${pick(SEPARATORS)}${'ab/'.repeat(6000)}${pick(VALUES)}`;
    else if (r < 0.18) line = `# ${'x'.repeat(17_000)}: y`;
    else if (r < 0.2)
      // `%`, non-ASCII, `#` or NUL early in an over-long line: inside the part that is kept.
      line = `${pick(KEYS)}${pick(SEPARATORS)}${pick(VALUES)}${pick(['', '#', '\0', ':'])}${'ab/'.repeat(6000)}`;
    else if (r < 0.24)
      // Values either side of the length the scanner stops looping over at.
      line = `${pick(KEYS)}${pick(SEPARATORS)}/${'a'.repeat(50 + Math.floor(next() * 30))}${pick(['', '%2f', 'é', '%'])}`;
    else
      line = `${pick(['', ' ', '\t'])}${pick(KEYS)}${pick(SEPARATORS)}${pick(VALUES)}${pick(['', ' ', ' # c', '#', '\0tail'])}`;
    lines.push(line);
  }
  if (next() < 0.1) {
    // Many non-ASCII rule values, then ASCII ones: the scanner switches how it finds them.
    for (let i = 0; i < 24; i++)
      lines.push(
        `Disallow: /${next() < 0.6 ? 'é' : 'e'}${i}%`.slice(0, next() < 0.8 ? -1 : undefined),
      );
  }
  let text = lines.join(pick(LINE_ENDS)) + (next() < 0.5 ? pick(LINE_ENDS) : '');
  if (next() < 0.15) text = pick(STARTS) + text;
  return next() < 0.1 ? `\uFEFF${text}` : text;
}

/** The same text as bytes, with a few bytes replaced so it is often not valid UTF-8. */
export function randomBytes(next: () => number, text: string): Uint8Array {
  const bytes = new TextEncoder().encode(text);
  for (let i = Math.floor(next() * 4); i > 0 && bytes.length > 0; i--) {
    bytes[Math.floor(next() * bytes.length)] = pick8(next);
  }
  return bytes;
}

function pick8(next: () => number): number {
  return [0x80, 0xc3, 0xe9, 0xff, 0xef, 0x0d, 0x23, 0x3a, 0x00][Math.floor(next() * 9)] as number;
}
