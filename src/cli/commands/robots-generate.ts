import {
  CRAWLER_PURPOSES,
  type CrawlerPurpose,
  type CrawlerRegistry,
} from '../../robots/agents/crawler-registry.ts';
import {
  expandPurposePolicy,
  type PurposeDecision,
  type PurposePolicy,
} from '../../robots/agents/purpose-policy.ts';
import { formatRobots } from '../../robots/format-robots.ts';
import { isWritableUserAgent } from '../../robots/internal/user-agent.ts';
import { writeFileAtomically } from '../../shared/files/atomic-file.ts';
import { printable } from '../../shared/printable.ts';
import { parseCommandArgs, usageError } from '../internal/args.ts';
import { jsonLine } from '../internal/json-line.ts';
import { type CliCommand, type CliIo, EXIT_OK } from '../io.ts';
import { REGISTRY_OPTIONS, REGISTRY_OPTIONS_HELP, registryFromOptions } from './robots-agents.ts';

const NAME = 'waymark robots generate';

const HELP = `Write a robots.txt by crawler purpose, from the crawler registry.

Usage: ${NAME} --purpose <purpose>=<allow|disallow>... [options]

Options:
      --purpose <p>=<d>   allow or disallow every known crawler of a purpose; repeat or
                          separate with commas (--purpose ai-training=disallow,search=allow).
                          Purposes: ${CRAWLER_PURPOSES.join(', ')}
      --disallow <path>   a Disallow rule of the * group (for every crawler); repeat.
                          Crawlers of allowed purposes get these rules too, except one
                          that would block / itself (Disallow: / is for unknown crawlers)
      --sitemap <url>     a Sitemap line; repeat
${REGISTRY_OPTIONS_HELP}
      --out <file>        write the file there (atomically) instead of to standard output (-)
      --json              one JSON object: {robotsTxt, policy, registryChecked, skipped, out}
  -h, --help              show this help

Each crawler of a disallowed purpose is named in a group with "Disallow: /"; each one of an
allowed purpose in a group with the * group's rules, so that "waymark robots audit" of the
file reports exactly the purposes asked for. Control tokens (Google-Extended) are named
like the others, and so are names operators document that are not RFC 9309 product tokens
(AI2Bot, MJ12bot: what the operator asks for; RFC 9309 parsers read them by their letters).
Names that cannot be written on a line at all (with spaces) are listed in the file's
header comment and on stderr instead.
Exit status: 0 when written, 2 on a usage error (or a rule, sitemap or registry file that
cannot be used), 3 when a file cannot be read or written.
`;

export const robotsGenerate: CliCommand = {
  summary: 'write a robots.txt by crawler purpose (allow search, disallow AI training, ...)',
  run: async (args: readonly string[], io: CliIo) => {
    const { values, positionals } = parseCommandArgs(NAME, args, {
      purpose: { type: 'string', multiple: true },
      disallow: { type: 'string', multiple: true },
      sitemap: { type: 'string', multiple: true },
      ...REGISTRY_OPTIONS,
      out: { type: 'string' },
      json: { type: 'boolean' },
    });
    if (values.help) {
      io.stdout(HELP);
      return EXIT_OK;
    }
    if (positionals.length > 0) throw usageError(NAME, `unexpected argument "${positionals[0]}"`);
    // `-` is standard output, as everywhere on the command line: not a file named "-".
    const out = values.out === '-' ? undefined : values.out;
    const purposes = purposeDecisions(values.purpose ?? []);
    if (Object.keys(purposes).length === 0) {
      throw usageError(NAME, 'missing --purpose <purpose>=<allow|disallow>');
    }
    const registry = await registryFromOptions(NAME, values, io);
    const disallow = values.disallow ?? [];
    const policy: PurposePolicy = {
      purposes,
      groups: [
        {
          userAgents: ['*'],
          rules:
            disallow.length === 0
              ? [{ directive: 'disallow', pattern: '' }]
              : disallow.map((pattern) => ({ directive: 'disallow', pattern })),
        },
      ],
      sitemaps: values.sitemap ?? [],
    };
    const expanded = expandPurposePolicy(policy, registry);
    const skipped = registry.crawlers
      .filter((c) => purposes[c.purpose] !== undefined && !isWritableUserAgent(c.token))
      .map((c) => c.token);
    // formatRobots refuses what cannot be read back (a pattern with "#", a relative sitemap).
    const robotsTxt = formatRobots(expanded, { comment: header(purposes, registry, skipped) });
    if (skipped.length > 0) {
      io.stderr(
        `${NAME}: note: not named, their documented names cannot be written on a user-agent line: ${printable(skipped.join(', '))}\n`,
      );
    }
    if (out !== undefined) await writeFileAtomically(out, [robotsTxt]);
    if (values.json) {
      io.stdout(
        jsonLine({
          robotsTxt,
          policy: expanded,
          registryChecked: registry.checked,
          skipped,
          out: out ?? null,
        }),
      );
    } else if (out !== undefined) {
      io.stdout(`wrote ${printable(out)} (${expanded.groups.length} groups)\n`);
    } else io.stdout(robotsTxt);
    return EXIT_OK;
  },
};

/** `--purpose` values (`ai-training=disallow`), repeated or comma-separated. */
function purposeDecisions(
  values: readonly string[],
): Partial<Record<CrawlerPurpose, PurposeDecision>> {
  const purposes: Partial<Record<CrawlerPurpose, PurposeDecision>> = {};
  for (const item of values.flatMap((v) => v.split(','))) {
    const [purpose = '', decision = '', ...rest] = item.trim().split('=');
    if (!CRAWLER_PURPOSES.includes(purpose as CrawlerPurpose)) {
      throw usageError(
        NAME,
        `--purpose "${printable(item)}": unknown purpose "${printable(purpose)}" (use ${CRAWLER_PURPOSES.join(', ')})`,
      );
    }
    if ((decision !== 'allow' && decision !== 'disallow') || rest.length > 0) {
      throw usageError(
        NAME,
        `--purpose "${printable(item)}": write ${purpose}=allow or ${purpose}=disallow`,
      );
    }
    const earlier = purposes[purpose as CrawlerPurpose];
    if (earlier !== undefined && earlier !== decision) {
      throw usageError(NAME, `--purpose ${purpose} is given as both allow and disallow`);
    }
    purposes[purpose as CrawlerPurpose] = decision;
  }
  return purposes;
}

function header(
  purposes: Partial<Record<CrawlerPurpose, PurposeDecision>>,
  registry: CrawlerRegistry,
  skipped: readonly string[],
): string {
  const asked = CRAWLER_PURPOSES.filter((p) => purposes[p] !== undefined)
    .map((p) => `${p}=${purposes[p]}`)
    .join(', ');
  const lines = [
    `Generated by waymark robots generate, by purpose: ${asked}`,
    `from the crawler registry checked ${registry.checked || '(undated)'} (${registry.crawlers.length} crawlers).`,
    'Crawlers not named below follow the * group.',
  ];
  if (skipped.length > 0) {
    lines.push(
      `Not named (their documented names cannot be written on a line): ${skipped.join(', ')}`,
    );
  }
  return lines.join('\n');
}
