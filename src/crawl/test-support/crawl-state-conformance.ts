// One suite for every CrawlState implementation (hono runs one router suite against each
// adapter the same way): what the contract in ../crawl-state.ts promises to a caller. It
// knows nothing of the store: no files, no tables, no injected clock (PostgreSQL keeps time
// by the database's clock). Time enters only two ways, neither of them timed: gaps of hours
// prove "not ready", and tiny gaps plus a sleep of the returned `waitMs` prove "ready again".
// The tests are in ./conformance/, one file per part of the contract.
import { describe } from 'node:test';
import type { CrawlState } from '../crawl-state.ts';
import { claimsAndCounts } from './conformance/claims-and-counts.ts';
import { recordAndAdd } from './conformance/record-and-add.ts';
import { releaseAndFinish } from './conformance/release-and-finish.ts';
import { reportFacts } from './conformance/report-facts.ts';
import { reportRecords } from './conformance/report-records.ts';
import { robotsAndTake } from './conformance/robots-and-take.ts';
import { twoWorkers } from './conformance/two-workers.ts';

/** What the suite runs against. */
export interface ConformanceTarget {
  /** Opens a new, empty crawl state (for PG: a fresh crawl name). */
  open(): Promise<CrawlState>;
  /** Opens a second handle on the same crawl as `state`, as another worker (PG) would; SQLite: undefined (one process). */
  second?(state: CrawlState): Promise<CrawlState>;
}

/**
 * Declares the conformance tests (node:test `describe`/`it`) against `target`. Each test
 * opens its own state (and creates its crawl) and closes it again.
 *
 * @example
 * ```ts
 * crawlStateConformance({ open: async () => openSqliteCrawlState(null, { resume: false }) });
 * ```
 */
export function crawlStateConformance(target: ConformanceTarget): void {
  describe('CrawlState conformance', () => {
    recordAndAdd(target);
    robotsAndTake(target);
    releaseAndFinish(target);
    claimsAndCounts(target);
    twoWorkers(target);
    reportFacts(target);
    reportRecords(target);
  });
}
