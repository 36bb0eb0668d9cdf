import { parseRobots } from '../../robots/index.ts';
import { hasErrors } from '../../shared/diagnostic.ts';
import { parseCommandArgs, usageError } from '../internal/args.ts';
import { diagnosticJson, diagnosticText } from '../internal/diagnostic-output.ts';
import { displayName, readInput } from '../internal/input.ts';
import { type CliCommand, type CliIo, EXIT_OK, EXIT_PROBLEMS } from '../io.ts';

const NAME = 'waymark robots lint';

const HELP = `Report problems in a robots.txt: lines crawlers ignore, misspellings, rules that never match.

Usage: ${NAME} <file|->... [options]

Arguments:
  <file|->    robots.txt files to read; - reads standard input

Options:
  --json      one JSON object a line: {file, line, column, severity, code, message}
  -h, --help  show this help

Prints file:line: severity: message for each problem. Control characters from the file
are shown escaped (\\x1b, \\u202e), never sent to the terminal raw.

Notes (info) say what Google ignores: every field other than User-agent, Allow, Disallow
and Sitemap (Crawl-delay, Host, ...), and the usage preference extensions Content-Usage
(draft-ietf-aipref-attach) and Content-Signal (Cloudflare), whose statements are checked
against their vocabularies; unknown terms are kept and noted, malformed ones are errors.
Exit status: 0 when no file has errors (warnings are fine), 1 when any has, 2 on a usage
error, 3 when a file cannot be read.
`;

export const robotsLint: CliCommand = {
  summary: 'report problems in a robots.txt, and what Google ignores',
  run: async (args: readonly string[], io: CliIo) => {
    const { values, positionals } = parseCommandArgs(NAME, args, { json: { type: 'boolean' } });
    if (values.help) {
      io.stdout(HELP);
      return EXIT_OK;
    }
    if (positionals.length === 0)
      throw usageError(NAME, 'missing the robots.txt file (or - for standard input)');
    let errors = false;
    for (const path of positionals) {
      const robots = parseRobots(await readInput(path, io));
      const file = displayName(path);
      for (const d of robots.diagnostics) {
        io.stdout(values.json ? diagnosticJson(file, d) : diagnosticText(file, d));
      }
      errors ||= hasErrors(robots.diagnostics);
    }
    return errors ? EXIT_PROBLEMS : EXIT_OK;
  },
};
