import assert from 'node:assert/strict';
import type { ReportData } from '../report-data.ts';

/**
 * The data a report page embeds (the JSON its script reads), read back from the page's
 * HTML; fails the test when the page has none.
 */
export function embeddedReportData(html: string): ReportData {
  const json = /<script type="application\/json"[^>]*>([^<]*)<\/script>/.exec(html)?.[1];
  assert.ok(json !== undefined, 'the report embeds its data');
  return JSON.parse(json) as ReportData;
}
