// The robots.txt tester's logic: which crawled URLs of an origin change verdict when the file
// or the user agent changes. The engine is the crawler's own (src/robots), bundled into the
// page, so the tester answers exactly as a crawl would.
import {
  parseRobots,
  productToken,
  type RobotsRule,
  type RobotsTxt,
  robotsForStatus,
} from '../../robots/index.ts';
import type { ReportRobots } from '../report-data.ts';

/** The rows of `urls` that belong to `origin` (`https://example.com`). */
export function rowsOfOrigin(urls: readonly string[], origin: string): number[] {
  const rows: number[] = [];
  const length = origin.length;
  urls.forEach((url, index) => {
    if (!url.startsWith(origin)) return;
    const next = url.charCodeAt(length);
    // The origin must end where the URL's authority does (not https://example.com.evil.test).
    if (Number.isNaN(next) || next === 0x2f || next === 0x3f || next === 0x23) rows.push(index);
  });
  return rows;
}

/**
 * The robots.txt the crawl obeyed, with RFC 9309's meaning for a missing one: `unavailable`
 * allows everything; `unreachable` disallows everything unless the crawl was told to
 * treat it as absent (`--robots-error allow`).
 */
export function originalRobots(robots: ReportRobots): RobotsTxt {
  if (robots.source === 'file') return parseRobots(robots.text ?? '', { url: robots.url });
  if (robots.source === 'unreachable' && !robots.unreachableAllowed) {
    return robotsForStatus(robots.status !== null && robots.status >= 500 ? robots.status : 503);
  }
  return robotsForStatus(404);
}

/** The text the tester starts with: the file as the crawl read it, or nothing. */
export function initialTesterText(robots: ReportRobots): string {
  return robots.text ?? '';
}

/**
 * The robots.txt to test: until its text is edited, the original (so an unreachable file
 * keeps blocking everything); once edited, the text as if the site served it.
 */
export function testedRobots(robots: ReportRobots, original: RobotsTxt, text: string): RobotsTxt {
  if (text === initialTesterText(robots)) return original;
  return parseRobots(text, { url: robots.url });
}

/** The token robots.txt groups are matched against, from what a person typed (`Googlebot/2.1` -> `Googlebot`). */
export function testerAgent(typed: string): string {
  return productToken(typed.trim());
}

export interface VerdictFlip {
  /** Index into the `urls` given to {@link flippedVerdicts}. */
  readonly row: number;
  readonly nowAllowed: boolean;
  /** The rule of the tested file that decided, or null (no rule matched, or no file). */
  readonly rule: RobotsRule | null;
  /** Why, when no rule decided: `no-matching-rule`, `no-matching-group`, `unreachable`, ... */
  readonly reason: string;
}

/** Each URL's verdict under a robots.txt and agent: the baseline the tester compares with. */
export function verdicts(
  robots: RobotsTxt,
  urls: readonly string[],
  rows: readonly number[],
  agent: string,
): Uint8Array {
  const allowed = new Uint8Array(rows.length);
  rows.forEach((row, position) => {
    allowed[position] = robots.isAllowed(urls[row] as string, agent) ? 1 : 0;
  });
  return allowed;
}

/**
 * The rows whose verdict under `tested` for `agent` differs from `baseline` (computed by
 * {@link verdicts} over the same rows). The cheap isAllowed runs for every row; explain, which
 * builds the explanation, only for the rows that flipped.
 */
export function flippedVerdicts(
  tested: RobotsTxt,
  agent: string,
  urls: readonly string[],
  rows: readonly number[],
  baseline: Uint8Array,
): VerdictFlip[] {
  const flips: VerdictFlip[] = [];
  rows.forEach((row, position) => {
    const url = urls[row] as string;
    const allowed = tested.isAllowed(url, agent);
    if (allowed === (baseline[position] === 1)) return;
    const why = tested.explain(url, agent);
    flips.push({ row, nowAllowed: allowed, rule: why.rule, reason: why.reason });
  });
  return flips;
}
