import { planIndexNowSubmission } from '../../indexnow/plan-submission.ts';
import { INDEXNOW_DEFAULT_ENDPOINT, submitIndexNow } from '../../indexnow/submit-indexnow.ts';
import type { IndexNowBatchResult, IndexNowReport } from '../../indexnow/types.ts';
import { printable } from '../../shared/printable.ts';
import { parseCommandArgs, usageError } from '../internal/args.ts';
import { displayName, readInput, urlLines } from '../internal/input.ts';
import { jsonLine } from '../internal/json-line.ts';
import { maxBytesOption } from '../internal/open-sitemap-url.ts';
import {
  type CliCommand,
  type CliIo,
  EXIT_FAILURE,
  EXIT_INTERRUPTED,
  EXIT_OK,
  EXIT_PROBLEMS,
} from '../io.ts';
import { diffSources, reportDiffDiagnostics } from './sitemap-diff.ts';

const NAME = 'waymark indexnow submit';

const HELP = `Tell search engines which URLs changed, with the IndexNow protocol.

Usage: ${NAME} --key <key> --host <host> (--urls <file|-> | --diff <old> <new>) [options]

Options:
      --key <key>            the site's IndexNow key: 8 to 128 of a-z A-Z 0-9 - (required)
      --host <host>          the site's host, e.g. www.example.com (required); URLs on
                             other hosts are refused, not sent
      --urls <file|->        the URLs, one a line (- for standard input); blank lines and
                             lines starting with # are skipped
      --diff <old> <new>     submit what changed between two sitemaps (URLs or files):
                             the added, lastmod-changed and removed URLs
      --key-location <url>   where the key file is, when not https://<host>/<key>.txt;
                             only URLs under its folder can be submitted
      --endpoint <url>       where to POST (default ${INDEXNOW_DEFAULT_ENDPOINT},
                             shared with every IndexNow engine)
      --max-retries <n>      retries of a batch after 429, 5xx or no answer (default 3)
      --dry-run              check and show what would be sent; send nothing
      --json                 one JSON object: the batches with their status and meaning
      --user-agent <ua>      User-Agent for every request (default waymark/<version>)
      --max-bytes <size>     most bytes read from each sitemap of --diff (default 100MiB)
  -h, --help                 show this help

URLs go in POSTs of up to 10,000. A 429 waits what Retry-After asks (up to 60 s; longer
is not retried) and 429, 5xx and dropped connections are retried with back-off. Each
batch's status is printed with its meaning. With --diff, a sitemap read with errors (cut
short, an HTTP error) stops the command before anything is sent, since a cut sitemap
makes every URL after the cut look removed; a sitemap index cannot be diffed for
submission (diff the sitemaps it lists).
Exit status: 0 when every batch was accepted (200 or 202), 1 when one was rejected or
not sent, a URL was refused or a sitemap of --diff had errors, 2 on a usage error,
3 when the endpoint could not be reached (or a sitemap or file could not be read).
`;

export const indexnowSubmit: CliCommand = {
  summary: 'submit changed URLs (a list, or the diff of two sitemaps) to IndexNow',
  run: async (args: readonly string[], io: CliIo) => {
    const { values, positionals } = parseCommandArgs(NAME, args, {
      key: { type: 'string' },
      host: { type: 'string' },
      urls: { type: 'string' },
      diff: { type: 'string' },
      'key-location': { type: 'string' },
      endpoint: { type: 'string' },
      'max-retries': { type: 'string' },
      'dry-run': { type: 'boolean' },
      json: { type: 'boolean' },
      'user-agent': { type: 'string' },
      'max-bytes': { type: 'string' },
    });
    if (values.help) {
      io.stdout(HELP);
      return EXIT_OK;
    }
    const { key, host } = values;
    if (key === undefined) throw usageError(NAME, 'missing --key');
    if (host === undefined) throw usageError(NAME, 'missing --host');
    if ((values.urls === undefined) === (values.diff === undefined)) {
      throw usageError(NAME, 'give either --urls <file|-> or --diff <old> <new>');
    }
    if (values.diff === undefined && positionals.length > 0) {
      throw usageError(NAME, `unexpected argument "${positionals[0]}"`);
    }
    if (values.diff !== undefined && positionals.length !== 1) {
      throw usageError(NAME, '--diff takes two sitemaps: --diff <old> <new>');
    }
    const maxRetries = retriesOption(values['max-retries']);
    const maxBytes = maxBytesOption(NAME, values['max-bytes']);
    const userAgent = values['user-agent'] ?? `waymark/${io.version}`;
    const keyLocation = values['key-location'];
    const endpoint = values.endpoint ?? INDEXNOW_DEFAULT_ENDPOINT;
    // Key, host and key location are checked before any sitemap is fetched.
    planIndexNowSubmission({ key, host, urls: [], ...(keyLocation ? { keyLocation } : {}) });

    let urls: string[];
    if (values.diff !== undefined) {
      const outcome = await diffSources(
        NAME,
        values.diff,
        positionals[0] as string,
        io,
        userAgent,
        maxBytes,
      );
      if ('httpError' in outcome) {
        io.stderr(outcome.httpError);
        io.stderr(`${NAME}: nothing sent\n`);
        return EXIT_PROBLEMS;
      }
      if (reportDiffDiagnostics(NAME, outcome, io, maxBytes)) {
        io.stderr(
          `${NAME}: nothing sent: a sitemap was read with errors, so the diff may be wrong\n`,
        );
        return EXIT_PROBLEMS;
      }
      const { diff } = outcome;
      if (diff.oldKind === 'index' || diff.newKind === 'index') {
        throw usageError(
          NAME,
          '--diff needs two URL sets; a sitemap index lists sitemaps, not pages (diff the sitemaps it lists)',
        );
      }
      // IndexNow asks for the URLs that were added, updated or deleted.
      urls = [
        ...diff.added.map((entry) => entry.loc),
        ...diff.lastmodChanged.map((change) => change.loc),
        ...diff.removed.map((entry) => entry.loc),
      ];
    } else {
      urls = urlLines(
        await readInput(values.urls as string, io),
        displayName(values.urls as string),
      );
    }

    const submission = {
      key,
      host,
      urls,
      endpoint,
      maxRetries,
      headers: { 'user-agent': userAgent },
      ...(keyLocation ? { keyLocation } : {}),
    };
    if (values['dry-run']) return dryRun(submission, values.json === true, io);

    const signal = io.interrupts?.();
    let report: IndexNowReport;
    try {
      report = await submitIndexNow({
        ...submission,
        ...(signal ? { signal } : {}),
        onBatch: (batch) => {
          if (!values.json) io.stdout(`${printable(batchLine(batch))}\n`);
        },
      });
    } catch (error) {
      if (signal?.aborted) {
        io.stderr(`${NAME}: interrupted; batches not yet answered may not have been received\n`);
        return EXIT_INTERRUPTED;
      }
      throw error;
    }
    if (values.json) {
      io.stdout(jsonLine({ endpoint, ...report }));
    } else {
      for (const { url, reason } of report.refused) {
        io.stderr(`${printable(`${NAME}: refused ${url}: ${reason}`)}\n`);
      }
      io.stdout(`${printable(summaryLine(report, endpoint))}\n`);
    }
    if (report.batches.some((batch) => batch.outcome === 'failed')) return EXIT_FAILURE;
    return report.ok ? EXIT_OK : EXIT_PROBLEMS;
  },
};

/** `--max-retries`, a whole number from 0. */
function retriesOption(text: string | undefined): number {
  if (text === undefined) return 3;
  if (!/^\d{1,3}$/.test(text)) {
    throw usageError(NAME, `--max-retries takes a whole number from 0 to 999, not "${text}"`);
  }
  return Number(text);
}

/** What would be sent, sending nothing. */
function dryRun(
  submission: Parameters<typeof planIndexNowSubmission>[0] & { endpoint: string },
  json: boolean,
  io: CliIo,
): number {
  const plan = planIndexNowSubmission(submission);
  if (json) {
    io.stdout(jsonLine({ dryRun: true, endpoint: submission.endpoint, ...plan }));
  } else {
    plan.batches.forEach((urlList, i) => {
      io.stdout(`batch ${i + 1}: ${urlCount(urlList.length)} (not sent: --dry-run)\n`);
      for (const url of urlList) io.stdout(`  ${printable(url)}\n`);
    });
    for (const { url, reason } of plan.refused) {
      io.stderr(`${printable(`${NAME}: refused ${url}: ${reason}`)}\n`);
    }
    const urls = plan.batches.reduce((sum, batch) => sum + batch.length, 0);
    io.stdout(
      `${printable(`would submit ${urlCount(urls)} in ${plan.batches.length} ${plan.batches.length === 1 ? 'request' : 'requests'} to ${submission.endpoint} for ${plan.host}`)}${plan.refused.length > 0 ? `; ${plan.refused.length} refused` : ''}\n`,
    );
  }
  return plan.refused.length > 0 ? EXIT_PROBLEMS : EXIT_OK;
}

/** `batch 1: 10000 URLs: 202 Accepted: ... (2 attempts)` */
function batchLine(batch: IndexNowBatchResult): string {
  const status = batch.status === null ? '' : `${batch.status} `;
  const attempts = batch.attempts > 1 ? ` (${batch.attempts} attempts)` : '';
  const error = batch.error === undefined ? '' : ` [${batch.error}]`;
  const detail =
    batch.detail === undefined || batch.ok ? '' : ` endpoint said: ${oneLine(batch.detail)}`;
  return `batch ${batch.batch}: ${urlCount(batch.urls)}: ${status}${batch.meaning}${attempts}${error}${detail}`;
}

function summaryLine(report: IndexNowReport, endpoint: string): string {
  const accepted = report.batches.filter((batch) => batch.ok).length;
  const total = report.batches.length;
  if (total === 0 && report.refused.length === 0) return 'nothing to submit';
  const refused = report.refused.length > 0 ? `; ${urlCount(report.refused.length)} refused` : '';
  return `${urlCount(report.submitted)} submitted to ${endpoint}: ${accepted} of ${total} ${total === 1 ? 'request' : 'requests'} accepted${refused}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').slice(0, 200);
}

function urlCount(n: number): string {
  return n === 1 ? '1 URL' : `${n} URLs`;
}
