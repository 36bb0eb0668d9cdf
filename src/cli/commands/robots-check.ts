import { parseRobots, productToken } from '../../robots/index.ts';
import { CANONICAL_KEY } from '../../robots/internal/directive-key.ts';
import type { RobotsUsage } from '../../robots/types.ts';
import { printable } from '../../shared/printable.ts';
import { parseCommandArgs, usageError } from '../internal/args.ts';
import { displayName, readInput, urlLines } from '../internal/input.ts';
import { jsonLine } from '../internal/json-line.ts';
import { formatTable } from '../internal/table.ts';
import { type CliCommand, type CliIo, EXIT_OK, EXIT_PROBLEMS } from '../io.ts';

const NAME = 'waymark robots check';

const HELP = `Check URLs against a robots.txt and show which line decided.

Usage: ${NAME} <file|-> --agent <token> <url>... [options]

Arguments:
  <file|->            the robots.txt to read; - reads standard input
  <url>...            http(s) URLs or paths to check (percent-encoded as a browser would)

Options:
  -a, --agent <token> the crawler's product token (Googlebot); repeat for several.
                      A longer name (Googlebot/2.1) is matched by its product token,
                      with a note on stderr; * is any crawler without a group of its own
      --urls <file>   read URLs from a file, one a line (# starts a comment)
      --usage         also show the usage preferences (Content-Usage, Content-Signal)
                      that apply to each URL: the lines of the agent's group whose path
                      matches longest; none apply to a URL the agent may not crawl
      --json          one JSON object a line: {url, userAgent, allowed, line, directive,
                      pattern}; with --usage also usage: {reason, lines, effective}
  -h, --help          show this help

Exit status: 0 when every URL is allowed, 1 when any is disallowed, 2 on a usage error,
3 when a file cannot be read.
`;

export const robotsCheck: CliCommand = {
  summary: 'check URLs against a robots.txt and show the deciding line',
  run: async (args: readonly string[], io: CliIo) => {
    const { values, positionals } = parseCommandArgs(NAME, args, {
      agent: { type: 'string', short: 'a', multiple: true },
      urls: { type: 'string' },
      usage: { type: 'boolean' },
      json: { type: 'boolean' },
    });
    if (values.help) {
      io.stdout(HELP);
      return EXIT_OK;
    }
    const [file, ...urlArgs] = positionals;
    if (file === undefined)
      throw usageError(NAME, 'missing the robots.txt file (or - for standard input)');
    if (file === '-' && values.urls === '-') {
      throw usageError(NAME, 'only one of the robots.txt and --urls can be standard input (-)');
    }
    if ((values.agent ?? []).length === 0) throw usageError(NAME, 'missing --agent <token>');
    const agents = (values.agent ?? []).map((agent) => matchedAgent(agent, io));
    let urls = [...urlArgs];
    // Concatenated, not spread into push: a list of some 120,000 lines would overflow the stack.
    if (values.urls !== undefined)
      urls = urls.concat(urlLines(await readInput(values.urls, io), displayName(values.urls)));
    if (urls.length === 0)
      throw usageError(NAME, 'no URLs to check: give them as arguments or with --urls <file>');
    const encodedUrls = urls.map(encodeUrl);

    const robots = parseRobots(await readInput(file, io));
    let disallowed = 0;
    const rows: string[][] = [];
    for (const encoded of encodedUrls) {
      // `private` for `/private` is read as a host name: say which path was checked.
      let noted = /^https?:\/\//i.test(encoded) || encoded.startsWith('/');
      for (const agent of agents) {
        const why = robots.explain(encoded, agent);
        if (!noted) {
          noted = true;
          io.stderr(
            `${NAME}: note: ${printable(JSON.stringify(encoded))} is neither an http(s) URL nor a path starting with "/": the path checked is ${printable(JSON.stringify(why.path))}\n`,
          );
        }
        const usage = values.usage ? robots.usage(encoded, agent) : null;
        if (!why.allowed) disallowed++;
        if (values.json) {
          io.stdout(
            jsonLine({
              url: encoded,
              userAgent: agent,
              allowed: why.allowed,
              line: why.rule?.line ?? null,
              directive: why.rule?.directive ?? null,
              pattern: why.rule?.pattern ?? null,
              ...(usage === null ? {} : { usage: usageJson(usage) }),
            }),
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
            ...(usage === null ? [] : [usageText(usage)]),
          ];
          rows.push((agents.length > 1 ? [agent, ...row] : row).map(printable));
        }
      }
    }
    if (!values.json) {
      const header = ['URL', 'VERDICT', 'LINE', 'RULE', ...(values.usage ? ['USAGE'] : [])];
      io.stdout(formatTable(agents.length > 1 ? ['AGENT', ...header] : header, rows));
    }
    return disallowed > 0 ? EXIT_PROBLEMS : EXIT_OK;
  },
};

/** The usage cell: each line that applies with its line number, or why none applies. */
function usageText(usage: RobotsUsage): string {
  if (usage.reason !== 'preferences') {
    return usage.reason === 'no-preferences'
      ? '(none stated)'
      : `(none: ${usage.reason.replaceAll('-', ' ')})`;
  }
  return usage.preferences
    .map(
      (p) =>
        `${CANONICAL_KEY[p.field]}: ${p.path === null ? '' : `${p.path} `}${p.value} (line ${p.line})`,
    )
    .join('; ');
}

function usageJson(usage: RobotsUsage): object {
  return {
    reason: usage.reason,
    lines: usage.preferences.map(({ field, path, value, line }) => ({ field, path, value, line })),
    effective: usage.effective,
  };
}

/**
 * The agent as the engine will match it. robots.txt groups name crawlers by product token
 * and the engine compares tokens whole, as Google does, so `Googlebot/2.1` given as is would
 * silently fall through to the `*` group: it is matched as `Googlebot`, and stderr says so.
 */
function matchedAgent(agent: string, io: CliIo): string {
  if (agent === '*') return agent;
  const token = productToken(agent);
  if (token.length === 0) {
    throw usageError(
      NAME,
      `--agent "${printable(agent)}" has no product token (letters, "-" and "_"), so it matches no group: name the crawler, e.g. --agent Googlebot`,
    );
  }
  if (token !== agent) {
    io.stderr(
      `${NAME}: note: --agent "${printable(agent)}" is matched as its product token "${token}" (robots.txt groups name crawlers by that alone)\n`,
    );
  }
  return token;
}

/**
 * The engine matches URLs as given, already percent-encoded; people type `café` and spaces.
 * Encode as a browser would, keeping paths as paths. robots.txt governs http and https
 * only, so any other scheme (ftp:, file:, mailto:) is refused rather than matched by path.
 */
function encodeUrl(url: string): string {
  if (URL.canParse(url)) {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw usageError(
        NAME,
        `"${printable(url)}" is a ${printable(parsed.protocol)} URL; robots.txt applies to http and https URLs only (give a path like /page to check the path alone)`,
      );
    }
    return parsed.href;
  }
  if (url.startsWith('/')) {
    const parsed = new URL(url, 'http://host.invalid');
    return `${parsed.pathname}${parsed.search}`;
  }
  return url;
}
