// A worker step as a handful of statements, whatever its size: the request becomes columns
// (arrays) that the statements unnest on the server, and the statements are sent together
// (pipelined) in one transaction, its BEGIN and COMMIT with them.
import type { PendingQuery, Row, Sql } from 'postgres';
import type { FrontierKind, StepRequest, StepResult, TakenItem } from '../crawl-state.ts';
import { factsText } from '../internal/report-counts.ts';
import { run } from './calls.ts';
import { FoundUrls } from './found-urls.ts';
import type { KnownUrls } from './known-urls.ts';

/** The schema-bound statement texts a step runs. */
export interface StepStatements {
  readonly ensureHosts: string;
  readonly lockHosts: string;
  readonly recordResults: string;
  readonly add: string;
  readonly countKnown: string;
  readonly release: string;
  readonly take: string;
  readonly handOutRobots: string;
  readonly summary: string;
  readonly stepBegins: string;
}

/** A step's request as the parameters of its statements; throws on bad input. */
export interface PreparedStep {
  /** Every host the step touches, each once: locked first. */
  readonly origins: string[];
  /** The columns of the results to record ($3..$13 of recordResults), or null for none. */
  readonly finished: unknown[] | null;
  readonly found: FoundUrls;
  /** The columns of the items to put back ($3..$5 of release), or null for none. */
  readonly released: unknown[] | null;
  readonly finishedCount: number;
  readonly take: number;
  /** `StepRequest.maxRequested` as a whole number ($4 of take), or null for no limit. */
  readonly maxRequested: number | null;
}

/** `known`: URLs not to send in full again (see known-urls.ts). */
export function prepareStep(
  request: StepRequest,
  normalize: (url: string) => string,
  now: number,
  known: KnownUrls | null = null,
): PreparedStep {
  const origins = new Set<string>();
  const found = new FoundUrls(normalize, known);
  const f = {
    id: [] as number[],
    attempt: [] as number[],
    status: [] as (number | null)[],
    outcome: [] as string[],
    reason: [] as (string | null)[],
    lastmod: [] as (string | null)[],
    finalUrl: [] as (string | null)[],
    data: [] as (string | null)[],
    depthCut: [] as number[],
    requested: [] as number[],
    facts: [] as (string | null)[],
  };
  for (const done of request.finished) {
    const { item, result } = done;
    origins.add(item.origin);
    f.id.push(item.id);
    f.attempt.push(item.attempt);
    f.status.push(result.status);
    f.outcome.push(result.outcome);
    f.reason.push(result.reason);
    f.lastmod.push(result.lastmod);
    f.finalUrl.push(result.finalUrl);
    f.data.push(result.data);
    f.depthCut.push(done.depthCut);
    f.requested.push(done.requested ? 1 : 0);
    f.facts.push(factsText(result.facts));
    for (const link of done.discovered) found.add(link, item);
  }
  for (const origin of found.origins) origins.add(origin);
  const r = { id: [] as number[], attempt: [] as number[], hold: [] as (number | null)[] };
  for (const { item, notBefore } of request.released) {
    origins.add(item.origin);
    r.id.push(item.id);
    r.attempt.push(item.attempt);
    // Sent as a duration, so the hold is the same whatever this machine's clock says of the
    // database's; one already past queues the item at once.
    r.hold.push(notBefore !== null && notBefore > now ? Math.ceil(notBefore - now) : null);
  }
  const { id, attempt, status, outcome, reason, lastmod, finalUrl, data, depthCut } = f;
  return {
    origins: [...origins],
    finished:
      id.length === 0
        ? null
        : [
            id,
            attempt,
            status,
            outcome,
            reason,
            lastmod,
            finalUrl,
            data,
            depthCut,
            f.requested,
            f.facts,
          ],
    found,
    released: r.id.length === 0 ? null : [r.id, r.attempt, r.hold],
    finishedCount: f.id.length,
    take: request.take,
    maxRequested: wholeLimit(request.maxRequested),
  };
}

/**
 * A limit as the bigint the take statement compares with (`floor`, as `takeLimit` does), or
 * null for none: omitted, or beyond any count of pages.
 */
function wholeLimit(maxRequested: number | undefined): number | null {
  if (maxRequested === undefined || maxRequested > Number.MAX_SAFE_INTEGER) return null;
  return Math.max(Math.floor(maxRequested), -1);
}

/**
 * Sends the step's statements on `tx`, inside a transaction whose BEGIN went out before them
 * and whose COMMIT goes out after them, without waiting for any answer: the caller sends the
 * COMMIT at once, so the whole step is one round trip and holds its locks only while the
 * server runs it. The statements note with the worker what they did (`stepNoted`), for a
 * retry to rebuild the answer of a step whose commit was in doubt.
 */
export function sendStep(
  tx: Sql,
  q: StepStatements,
  crawl: number,
  worker: number,
  step: PreparedStep,
): Promise<StepResult> {
  const queries: PendingQuery<Row[]>[] = [];
  const send = (text: string, parameters: unknown[]) => {
    // Sent now, in this order, before the caller's COMMIT: a query only goes out when
    // executed, and awaiting it would do that a turn later.
    const query = run(tx, text, parameters).execute();
    queries.push(query);
    return query;
  };
  send(q.stepBegins, [worker]);
  if (step.origins.length > 0) {
    send(q.ensureHosts, [crawl, step.origins]);
    send(q.lockHosts, [crawl, step.origins]);
  }
  const recorded = step.finished && send(q.recordResults, [crawl, worker, ...step.finished]);
  if (step.found.columns.key.length > 0) send(q.add, step.found.addParameters(crawl, worker));
  // After the results are recorded: the counts of a lost result's links are not applied.
  if (step.found.counts.size > 0) send(q.countKnown, step.found.countParameters(crawl, worker));
  if (step.released) send(q.release, [crawl, worker, ...step.released]);
  const taken = step.take > 0 ? send(q.take, [crawl, worker, step.take, step.maxRequested]) : null;
  const robots = step.take > 0 ? send(q.handOutRobots, [crawl, worker, step.take]) : null;
  const summary = send(q.summary, [crawl]);
  return Promise.all(queries).then(async () => ({
    taken: taken ? (await taken).map(toTakenItem) : [],
    robots: robots ? (await robots).map((row) => String(row['origin'])) : [],
    lost: step.finishedCount - (recorded ? Number((await recorded)[0]?.['recorded']) : 0),
    ...toSummary((await summary)[0]),
  }));
}

/** What the step noted of itself (see {@link sendStep}), as its answer. */
export function notedStep(
  noted: Row | undefined,
  taken: Row[],
  summary: Row | undefined,
  finishedCount: number,
): StepResult {
  const ids = ((noted?.['step_taken'] ?? []) as unknown[]).map(Number);
  const byId = new Map(taken.map((row) => [Number(row['id']), toTakenItem(row)]));
  return {
    taken: ids.flatMap((id) => byId.get(id) ?? []),
    robots: ((noted?.['step_robots'] ?? []) as unknown[]).map(String),
    lost: finishedCount - Number(noted?.['step_recorded'] ?? 0),
    ...toSummary(summary),
  };
}

/** The summary statement's row as the step reports it. */
export function toSummary(row: Row | undefined): Pick<StepResult, 'open' | 'waitMs' | 'requested'> {
  const wait = row?.['wait'];
  return {
    open: row?.['open'] !== false,
    waitMs: wait === null || wait === undefined ? null : Math.max(0, Number(wait)),
    requested: Number(row?.['requested'] ?? 0),
  };
}

export function toTakenItem(row: Row): TakenItem {
  return {
    url: String(row['url']),
    origin: String(row['origin']),
    priority: Number(row['priority']),
    depth: Number(row['depth']),
    via: row['via'] ?? null,
    kind: row['kind'] as FrontierKind,
    id: Number(row['id']),
    attempt: Number(row['attempts']),
    redirects: Number(row['redirects']),
  };
}
