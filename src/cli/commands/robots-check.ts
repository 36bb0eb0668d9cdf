import { parseRobots } from '../../robots/index.ts';
import { parseCommandArgs, usageError } from '../internal/args.ts';
import { readInput } from '../internal/input.ts';
import { formatTable } from '../internal/table.ts';
import { type CliCommand, type CliIo, EXIT_OK, EXIT_PROBLEMS } from '../io.ts';

const NAME = 'waymark robots check';

const HELP = `Check URLs against a robots.txt and show which line decided.

Usage: ${NAME} <file|-> --agent <token> <url>... [options]

Arguments:
  <file|->            the robots.txt to read; - reads standard input
  <url>...            URLs or paths to check (percent-encoded as a browser would)

Options:
  -a, --agent <token> the crawler's product token (Googlebot); repeat for several
      --urls <file>   read URLs from a file, one a line (# starts a comment)
      --json          one JSON object a line: {url, userAgent, allowed, line, directive, pattern}
  -h, --help          show this help

Exit status: 0 when every URL is allowed, 1 when any is disallowed, 2 on a usage error.
`;

export const robotsCheck: CliCommand = {
  summary: 'check URLs against a robots.txt and show the deciding line',
  run: async (args: readonly string[], io: CliIo) => {
    const { values, positionals } = parseCommandArgs(NAME, args, {
      agent: { type: 'string', short: 'a', multiple: true },
      urls: { type: 'string' },
      json: { type: 'boolean' },
    });
    if (values.help) {
      io.stdout(HELP);
      return EXIT_OK;
    }
    const [file, ...urlArgs] = positionals;
    if (file === undefined)
      throw usageError(NAME, 'missing the robots.txt file (or - for standard input)');
    const agents = values.agent ?? [];
    if (agents.length === 0) throw usageError(NAME, 'missing --agent <token>');
    const urls = [...urlArgs];
    if (values.urls !== undefined) urls.push(...urlLines(await readInput(values.urls, io)));
    if (urls.length === 0)
      throw usageError(NAME, 'no URLs to check: give them as arguments or with --urls <file>');

    const robots = parseRobots(await readInput(file, io));
    let disallowed = 0;
    const rows: string[][] = [];
    for (const url of urls) {
      const encoded = encodeUrl(url);
      for (const agent of agents) {
        const why = robots.explain(encoded, agent);
        if (!why.allowed) disallowed++;
        if (values.json) {
          io.stdout(
            `${JSON.stringify({
              url: encoded,
              userAgent: agent,
              allowed: why.allowed,
              line: why.rule?.line ?? null,
              directive: why.rule?.directive ?? null,
              pattern: why.rule?.pattern ?? null,
            })}\n`,
          );
        } else {
          const rule =
            why.rule === null
              ? `(${why.reason.replaceAll('-', ' ')})`
              : `${why.rule.directive === 'allow' ? 'Allow' : 'Disallow'}: ${why.rule.pattern}`;
          const row = [
            encoded,
            why.allowed ? 'allowed' : 'disallowed',
            String(why.rule?.line ?? '-'),
            rule,
          ];
          rows.push(agents.length > 1 ? [agent, ...row] : row);
        }
      }
    }
    if (!values.json) {
      const header = ['URL', 'VERDICT', 'LINE', 'RULE'];
      io.stdout(formatTable(agents.length > 1 ? ['AGENT', ...header] : header, rows));
    }
    return disallowed > 0 ? EXIT_PROBLEMS : EXIT_OK;
  },
};

function urlLines(bytes: Uint8Array): string[] {
  return new TextDecoder()
    .decode(bytes)
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith('#'));
}

/**
 * The engine matches URLs as given, already percent-encoded; people type `café` and spaces.
 * Encode as a browser would, keeping paths as paths.
 */
function encodeUrl(url: string): string {
  if (URL.canParse(url)) return new URL(url).href;
  if (url.startsWith('/')) {
    const parsed = new URL(url, 'http://host.invalid');
    return `${parsed.pathname}${parsed.search}`;
  }
  return url;
}
