import { openWithLimits } from '../../http/fetch-with-limits.ts';
import {
  type AuditFinding,
  auditRobots,
  type CrawlerAudit,
  type RobotsAudit,
} from '../../robots/agents/audit-robots.ts';
import { DEFAULT_MAX_ROBOTS_BYTES, parseRobots } from '../../robots/parse-robots.ts';
import { robotsForStatus } from '../../robots/robots-for-status.ts';
import type { RobotsTxt } from '../../robots/robots-txt.ts';
import type { RobotsExplanation } from '../../robots/types.ts';
import { readUpTo } from '../../shared/bytes.ts';
import { hasErrors } from '../../shared/diagnostic.ts';
import { printable } from '../../shared/printable.ts';
import { isWaymarkError } from '../../shared/waymark-error.ts';
import { parseCommandArgs, usageError } from '../internal/args.ts';
import { diagnosticText } from '../internal/diagnostic-output.ts';
import { displayName, readInput } from '../internal/input.ts';
import { jsonLine } from '../internal/json-line.ts';
import { formatTable } from '../internal/table.ts';
import { type CliCommand, type CliIo, EXIT_OK, EXIT_PROBLEMS } from '../io.ts';
import { REGISTRY_OPTIONS, REGISTRY_OPTIONS_HELP, registryFromOptions } from './robots-agents.ts';

const NAME = 'waymark robots audit';

/** RFC 9309 2.3.1.2: follow at least five redirects; past that, the file is unavailable. */
const MAX_ROBOTS_REDIRECTS = 5;

const HELP = `Audit a robots.txt by purpose: what each known crawler (search, AI training, AI
search, ...) may fetch, which group and line decided, and the usual mistakes.

Usage: ${NAME} <file|url|-> [options]

Arguments:
  <file|url|->            a robots.txt file, - for standard input, or an http(s) URL:
                          a site URL (https://example.com/) reads its /robots.txt, any
                          other URL is read as given. An HTTP answer other than 2xx is
                          read as RFC 9309 says: 4xx allows everything, 5xx and 429
                          disallow everything

Options:
  -p, --path <path>       a path or URL to decide besides /; repeat for several
${REGISTRY_OPTIONS_HELP}
      --json              the whole audit as one JSON object
  -h, --help              show this help

For each purpose: whether all its crawlers may fetch everything audited, none, or some;
then a row per crawler with the group that applies (its own, a fallback token's such as
Googlebot's for Googlebot-Image, or *) and, per path, allowed or blocked with the line
that decided. Findings follow as file:line: severity: message [code], each with a fix.
Exit status: 0 when there are no error findings (warnings and notes are fine), 1 when
there are, 2 on a usage error or a registry file with errors, 3 when the file or URL
cannot be read (no such file, no connection).
`;

export const robotsAudit: CliCommand = {
  summary: 'audit a robots.txt by crawler purpose, with the deciding lines and mistakes',
  run: async (args: readonly string[], io: CliIo) => {
    const { values, positionals } = parseCommandArgs(NAME, args, {
      path: { type: 'string', short: 'p', multiple: true },
      ...REGISTRY_OPTIONS,
      json: { type: 'boolean' },
    });
    if (values.help) {
      io.stdout(HELP);
      return EXIT_OK;
    }
    const [source, ...extra] = positionals;
    if (source === undefined) {
      throw usageError(NAME, 'missing the robots.txt file or URL (or - for standard input)');
    }
    if (extra.length > 0)
      throw usageError(NAME, `one robots.txt at a time (got ${positionals.length})`);
    const paths = (values.path ?? []).map(checkedPath);
    const registry = await registryFromOptions(NAME, values, io);
    const { name, robots, why } = await readRobots(source, io);
    const audit = auditRobots(robots, { registry, paths });
    if (values.json) io.stdout(jsonLine({ file: name, ...audit }));
    else io.stdout(auditText(name, audit, why));
    return hasErrors(audit.findings) ? EXIT_PROBLEMS : EXIT_OK;
  },
};

/** A `--path` as the engine matches it: a path, or an http(s) URL percent-encoded. */
function checkedPath(value: string): string {
  if (value.startsWith('/')) {
    const parsed = new URL(value, 'http://host.invalid');
    return `${parsed.pathname}${parsed.search}`;
  }
  const url = URL.parse(value);
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw usageError(NAME, `--path "${printable(value)}" is not a path (/x) or an http(s) URL`);
  }
  return url.href;
}

/** A robots.txt read, and why it is unavailable when no 4xx said so (a redirect loop). */
interface ReadRobots {
  readonly name: string;
  readonly robots: RobotsTxt;
  readonly why?: string;
}

async function readRobots(source: string, io: CliIo): Promise<ReadRobots> {
  if (!/^https?:\/\//i.test(source)) {
    return { name: displayName(source), robots: parseRobots(await readInput(source, io)) };
  }
  const url = URL.parse(source);
  if (url === null) throw usageError(NAME, `"${printable(source)}" is not a valid URL`);
  if (url.pathname === '/' && url.search === '') url.pathname = '/robots.txt';
  let response: Awaited<ReturnType<typeof openWithLimits>>;
  try {
    response = await openWithLimits(url.href, {
      timeoutMs: 30_000,
      maxRedirects: MAX_ROBOTS_REDIRECTS,
      // The body is cut at the RFC's limit below; this cap only stops a runaway body.
      maxBytes: Number.MAX_SAFE_INTEGER,
      headers: { 'user-agent': `waymark/${io.version}`, accept: 'text/plain, */*;q=0.5' },
    });
  } catch (error) {
    // RFC 9309 2.3.1.2: when redirects run out the crawler may take the file as unavailable.
    if (isWaymarkError(error) && error.code === 'redirect-limit') {
      const why = /loop/.test(error.message) ? 'a redirect loop' : 'too many redirects';
      return { name: url.href, robots: robotsForStatus(301), why };
    }
    throw error;
  }
  if (response.status < 200 || response.status >= 300) {
    await response.cancel();
    return { name: response.url, robots: robotsForStatus(response.status) };
  }
  const body = await readUpTo(response.body, DEFAULT_MAX_ROBOTS_BYTES + 1);
  return {
    name: response.url,
    robots: robotsForStatus(response.status, body, { url: response.url }),
  };
}

const VERDICTS = { 'all-allowed': 'all allowed', 'all-blocked': 'all blocked', mixed: 'mixed' };

function auditText(name: string, audit: RobotsAudit, why: string | undefined): string {
  const out: string[] = [
    `${printable(name)}: ${sourceText(audit, why)} (crawler registry checked ${audit.registryChecked || 'undated'})\n`,
  ];
  for (const purpose of audit.purposes) {
    const counts = `${purpose.allowed} allowed, ${purpose.blocked} blocked${purpose.partial > 0 ? `, ${purpose.partial} partly` : ''}`;
    out.push(`\n${purpose.purpose}: ${VERDICTS[purpose.verdict]} (${counts})\n`);
    const rows = purpose.crawlers.map((c) =>
      [c.crawler.token, groupText(c), ...c.decisions.map(decisionText)].map(printable),
    );
    const table = formatTable(['TOKEN', 'GROUP', ...audit.paths.map(printable)], rows);
    out.push(table.replace(/^/gm, '  ').replace(/ +$/gm, ''));
  }
  out.push(`\n${findingsText(name, audit.findings)}`);
  return out.join('');
}

function sourceText(audit: RobotsAudit, why: string | undefined): string {
  if (audit.source === 'unavailable') {
    return `no robots.txt (${why ?? '4xx'}, read as unavailable): everything is allowed`;
  }
  if (audit.source === 'unreachable') return 'robots.txt unreachable: everything is disallowed';
  return 'robots.txt';
}

function groupText(audit: CrawlerAudit): string {
  const line = audit.decisions.find((d) => d.group !== null)?.group?.line;
  const at = line === undefined ? '' : `, line ${line}`;
  switch (audit.matchedBy) {
    case 'token':
      return `own${at}`;
    case 'fallback':
      return `${audit.matchedToken}'s${at}`;
    case 'global':
      return `*${at}`;
    default:
      return '-';
  }
}

function decisionText(decision: RobotsExplanation): string {
  const verdict = decision.allowed ? 'allowed' : 'blocked';
  return decision.rule === null ? verdict : `${verdict} (line ${decision.rule.line})`;
}

function findingsText(name: string, findings: readonly AuditFinding[]): string {
  if (findings.length === 0) return 'No findings.\n';
  const counts = (['error', 'warning', 'info'] as const)
    .map((severity) => [severity, findings.filter((f) => f.severity === severity).length] as const)
    .filter(([, n]) => n > 0)
    .map(([severity, n]) => `${n} ${severity === 'info' ? 'note' : severity}${n === 1 ? '' : 's'}`);
  const lines = findings.map((f) => `${diagnosticText(name, f)}  fix: ${printable(f.hint)}\n`);
  return `Findings (${counts.join(', ')}):\n${lines.join('')}`;
}
