// The shared CrawlState conformance suite, run against the SQLite state (one process, so
// without a second worker: what two workers share is PostgreSQL's to prove).
import { openSqliteCrawlState } from './sqlite-crawl-state.ts';
import { crawlStateConformance } from './test-support/crawl-state-conformance.ts';

crawlStateConformance({ open: async () => openSqliteCrawlState(null, { resume: false }) });
