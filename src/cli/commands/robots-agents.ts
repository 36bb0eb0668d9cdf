import {
  CRAWLER_PURPOSES,
  type CrawlerPurpose,
  type CrawlerRegistry,
  crawlersByPurpose,
  type KnownCrawler,
  mergeCrawlerRegistries,
} from '../../robots/agents/crawler-registry.ts';
import { KNOWN_CRAWLERS } from '../../robots/agents/known-crawlers.ts';
import { parseCrawlerRegistry } from '../../robots/agents/parse-crawler-registry.ts';
import { hasErrors } from '../../shared/diagnostic.ts';
import { printable } from '../../shared/printable.ts';
import { WaymarkError } from '../../shared/waymark-error.ts';
import { parseCommandArgs, usageError } from '../internal/args.ts';
import { diagnosticText } from '../internal/diagnostic-output.ts';
import { displayName, readInput } from '../internal/input.ts';
import { jsonLine } from '../internal/json-line.ts';
import { formatTable } from '../internal/table.ts';
import { type CliCommand, type CliIo, EXIT_OK } from '../io.ts';

const NAME = 'waymark robots agents';

/** The registry options' help, shared by the commands that take them. */
export const REGISTRY_OPTIONS_HELP = `      --registry <file>   a crawler registry (JSON, as the bundled one) laid over the
                          bundled one: an entry with the same token replaces it;
                          repeat for several, later files win
      --registry-only     use only the --registry files, not the bundled registry`;

/** The parseArgs options of {@link REGISTRY_OPTIONS_HELP}. */
export const REGISTRY_OPTIONS = {
  registry: { type: 'string', multiple: true },
  'registry-only': { type: 'boolean' },
} as const;

const HELP = `List the known crawlers: robots.txt token, operator, purpose, whether it obeys robots.txt.

Usage: ${NAME} [options]

Options:
      --purpose <p>       only crawlers of this purpose; repeat or separate with commas.
                          Purposes: ${CRAWLER_PURPOSES.join(', ')}
${REGISTRY_OPTIONS_HELP}
      --json              the registry as one JSON object, in the registry file's format
  -h, --help              show this help

ROBOTS.TXT says what the operator documents: yes, no (it does not obey robots.txt, e.g.
when fetching for a user), or ? (not documented); "token only" marks control tokens
that never fetch but are read from robots.txt (Google-Extended).
Registry diagnostics go to stderr; a registry file with errors stops the command.
Exit status: 0 when listed, 2 on a usage error or a registry file with errors, 3 when a
file cannot be read.
`;

export const robotsAgents: CliCommand = {
  summary: 'list known crawlers by purpose',
  run: async (args: readonly string[], io: CliIo) => {
    const { values, positionals } = parseCommandArgs(NAME, args, {
      purpose: { type: 'string', multiple: true },
      ...REGISTRY_OPTIONS,
      json: { type: 'boolean' },
    });
    if (values.help) {
      io.stdout(HELP);
      return EXIT_OK;
    }
    if (positionals.length > 0) throw usageError(NAME, `unexpected argument "${positionals[0]}"`);
    const purposes = purposeList(NAME, values.purpose ?? []);
    const registry = await registryFromOptions(NAME, values, io);
    const crawlers = crawlersByPurpose(registry, purposes);
    if (values.json) {
      io.stdout(jsonLine({ checked: registry.checked, crawlers }));
      return EXIT_OK;
    }
    io.stdout(
      formatTable(
        ['TOKEN', 'OPERATOR', 'PURPOSE', 'ROBOTS.TXT', 'DOCUMENTATION'],
        crawlers.map((c) =>
          [c.token, c.operator, c.purpose, obeys(c), c.documentation || '-'].map(printable),
        ),
      ),
    );
    io.stderr(
      `${crawlers.length} crawler${crawlers.length === 1 ? '' : 's'} (registry checked ${registry.checked || 'undated'})\n`,
    );
    return EXIT_OK;
  },
};

function obeys(crawler: KnownCrawler): string {
  const answer = crawler.honoursRobotsTxt === null ? '?' : crawler.honoursRobotsTxt ? 'yes' : 'no';
  return crawler.fetches ? answer : `${answer} (token only)`;
}

/** `--purpose` values, repeated or comma-separated, checked against the purposes. */
function purposeList(command: string, values: readonly string[]): CrawlerPurpose[] {
  const purposes: CrawlerPurpose[] = [];
  for (const value of values.flatMap((v) => v.split(','))) {
    const purpose = value.trim();
    if (!CRAWLER_PURPOSES.includes(purpose as CrawlerPurpose)) {
      throw usageError(
        command,
        `unknown purpose "${purpose}" (use ${CRAWLER_PURPOSES.join(', ')})`,
      );
    }
    if (!purposes.includes(purpose as CrawlerPurpose)) purposes.push(purpose as CrawlerPurpose);
  }
  return purposes;
}

/**
 * The registry the options ask for: the bundled one with each `--registry` file laid over
 * it in order, or those files alone with `--registry-only`. A file's diagnostics go to
 * stderr; one with errors stops the command (exit 2), since an audit or a robots.txt made
 * from a half-read registry would be silently wrong.
 */
export async function registryFromOptions(
  command: string,
  values: {
    readonly registry?: string[] | undefined;
    readonly 'registry-only'?: boolean | undefined;
  },
  io: CliIo,
): Promise<CrawlerRegistry> {
  const files = values.registry ?? [];
  if (values['registry-only'] && files.length === 0) {
    throw usageError(command, '--registry-only needs at least one --registry <file>');
  }
  let registry: CrawlerRegistry | null = values['registry-only'] ? null : KNOWN_CRAWLERS;
  for (const file of files) {
    const text = new TextDecoder().decode(await readInput(file, io));
    const { registry: read, diagnostics } = parseCrawlerRegistry(text);
    for (const d of diagnostics) io.stderr(diagnosticText(displayName(file), d));
    if (hasErrors(diagnostics)) {
      // A usage error: printed as it is (it names the command) and exit 2.
      throw new WaymarkError(
        'usage',
        `${command}: the crawler registry ${displayName(file)} has errors (listed above); fix or remove those entries`,
      );
    }
    registry = registry === null ? read : mergeCrawlerRegistries(registry, read);
  }
  return registry ?? KNOWN_CRAWLERS;
}
