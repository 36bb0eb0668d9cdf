// Each implementation behind the same small face. Every one gets its own tight loops, so
// no call site is shared (and made polymorphic) between them.

import { Readable } from 'node:stream';
import robotsParser from 'robots-parser';
import makeGuard, { type Guard } from 'robots-txt-guard';
import parseRobotsTxt from 'robots-txt-parse';
import { parseRobots, type RobotsTxt } from '../../src/robots/index.ts';
import { AGENTS, type Corpus } from './robots-corpus.ts';

/** Read every byte, as the peers do (waymark's default stops at RFC 9309's 500 KiB). */
export const WAYMARK_OPTIONS = { maxBytes: Number.POSITIVE_INFINITY } as const;

export interface Contender {
  readonly name: string;
  /** How the URL reaches it, for the output. */
  readonly takes: string;
  /** Parses every file of the corpus, keeping the results for the checks. */
  parseCorpus(): void | Promise<void>;
  /** Every (file, URL, agent) answer, in corpus order, agents innermost. */
  answers(): (boolean | undefined)[];
  /** Runs every check once; returns how many were allowed, so none can be optimised away. */
  checkCorpus(): number;
  /** Why it answered as it did, for printing a disagreement; '' when it cannot say. */
  describe(file: number, url: number, agent: string): string;
}

export function waymark(corpus: Corpus): Contender {
  let parsed: { robots: RobotsTxt; urls: readonly string[] }[] = [];
  const robotsAt = (file: number): RobotsTxt => (parsed[file] as (typeof parsed)[number]).robots;
  return {
    name: 'waymark',
    takes: 'full URL',
    parseCorpus() {
      parsed = corpus.files.map((file) => ({
        robots: parseRobots(file.text, { url: file.robotsUrl, ...WAYMARK_OPTIONS }),
        urls: file.urls,
      }));
    },
    answers() {
      return parsed.flatMap(({ robots, urls }) =>
        urls.flatMap((url) => AGENTS.map((agent) => robots.isAllowed(url, agent))),
      );
    },
    checkCorpus() {
      let allowed = 0;
      for (const { robots, urls } of parsed) {
        for (const url of urls) {
          for (const agent of AGENTS) if (robots.isAllowed(url, agent)) allowed++;
        }
      }
      return allowed;
    },
    describe(file, url, agent) {
      const why = robotsAt(file).explain(urlAt(corpus, file, url), agent);
      if (why.rule === null) return why.reason;
      return `${why.rule.directive}: ${why.rule.pattern} (line ${why.rule.line})`;
    },
  };
}

/** Parsing from bytes, as waymark is meant to be fed; timed for parsing only. */
export function parseWaymarkBytes(corpus: Corpus): RobotsTxt[] {
  return corpus.files.map((file) =>
    parseRobots(file.bytes, { url: file.robotsUrl, ...WAYMARK_OPTIONS }),
  );
}

type RobotsParser = ReturnType<typeof robotsParser>;

export function robotsParserPeer(corpus: Corpus): Contender {
  let parsed: { robots: RobotsParser; urls: readonly string[] }[] = [];
  return {
    name: 'robots-parser',
    takes: 'full URL',
    parseCorpus() {
      parsed = corpus.files.map((file) => ({
        robots: robotsParser(file.robotsUrl, file.text),
        urls: file.urls,
      }));
    },
    answers() {
      return parsed.flatMap(({ robots, urls }) =>
        urls.flatMap((url) => AGENTS.map((agent) => robots.isAllowed(url, agent))),
      );
    },
    checkCorpus() {
      let allowed = 0;
      for (const { robots, urls } of parsed) {
        for (const url of urls) {
          for (const agent of AGENTS) if (robots.isAllowed(url, agent)) allowed++;
        }
      }
      return allowed;
    },
    describe(file, url, agent) {
      const { robots } = parsed[file] as (typeof parsed)[number];
      const line = robots.getMatchingLineNumber(urlAt(corpus, file, url), agent);
      return line < 0 ? 'no rule' : `line ${line}`;
    },
  };
}

/** robots-txt-parse reads a stream into groups; robots-txt-guard compiles them to regexes. */
export async function guardFor(text: string): Promise<Guard> {
  return makeGuard(await parseRobotsTxt(Readable.from([text])));
}

export function robotsTxtGuardPeer(corpus: Corpus): Contender {
  let parsed: { guard: Guard; paths: readonly string[] }[] = [];
  return {
    name: 'robots-txt-guard',
    takes: 'path, pre-split',
    async parseCorpus() {
      const next: typeof parsed = [];
      for (const file of corpus.files) {
        next.push({ guard: await guardFor(file.text), paths: file.paths });
      }
      parsed = next;
    },
    answers() {
      return parsed.flatMap(({ guard, paths }) =>
        paths.flatMap((path) => AGENTS.map((agent) => guard.isAllowed(agent, path))),
      );
    },
    checkCorpus() {
      let allowed = 0;
      for (const { guard, paths } of parsed) {
        for (const path of paths) {
          for (const agent of AGENTS) if (guard.isAllowed(agent, path)) allowed++;
        }
      }
      return allowed;
    },
    describe() {
      return '';
    },
  };
}

function urlAt(corpus: Corpus, file: number, url: number): string {
  return corpus.files[file]?.urls[url] ?? '';
}
