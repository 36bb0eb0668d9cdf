// The distributed crawl benchmark's crawler processes: `waymark crawl` with the crawl
// bench's preload (peak RSS, CPU, no connections off 127.0.0.1), started side by side and
// tracked, so an interrupted benchmark can kill exactly the processes it started.

import { type ChildProcess, spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import type { ChildRun } from './crawl-child.ts';
import type { PreloadReport } from './crawl-child-preload.ts';

/** Must match `MARK` in `crawl-child-preload.ts` (and `REPORT_MARK` in `crawl-child.ts`). */
const REPORT_MARK = 'crawl-child-report ';

/** A crawler process started by {@link CrawlerProcesses.start}. */
export interface StartedCrawler {
  readonly pid: number;
  /** Resolves once it exits with code 0; rejects on any other end, or after the timeout. */
  readonly done: Promise<ChildRun>;
}

/** The crawler processes of one benchmark, live ones tracked until they exit. */
export class CrawlerProcesses {
  readonly #preload: string;
  readonly #cwd: string;
  readonly #live = new Map<number, ChildProcess>();
  readonly #onChange: (pids: Iterable<number>) => void;

  /**
   * @param preload the compiled preload script (see `buildChildScripts`)
   * @param onChange told the live pids whenever they change (for a watchdog's pid file)
   */
  constructor(preload: string, cwd: string, onChange: (pids: Iterable<number>) => void) {
    this.#preload = preload;
    this.#cwd = cwd;
    this.#onChange = onChange;
  }

  /** Starts `node --import <preload> ...args`. */
  start(args: readonly string[], timeoutMs: number): StartedCrawler {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      ['--import', pathToFileURL(this.#preload).href, ...args],
      { cwd: this.#cwd, stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs },
    );
    const pid = child.pid;
    if (pid === undefined) throw new Error(`could not start ${args.join(' ')}`);
    this.#live.set(pid, child);
    this.#onChange(this.#live.keys());
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
    });
    const done = new Promise<ChildRun>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code, signal) => {
        this.#live.delete(pid);
        this.#onChange(this.#live.keys());
        const wallMs = performance.now() - started;
        const line = stderr.split('\n').find((l) => l.startsWith(REPORT_MARK));
        if (code !== 0 || line === undefined) {
          const how = signal === null ? `exit code ${code}` : `signal ${signal}`;
          reject(new Error(`${args.join(' ')}: ${how}\n${stderr.slice(-3000)}`));
          return;
        }
        const report = JSON.parse(line.slice(REPORT_MARK.length)) as PreloadReport;
        resolve({ wallMs, report, stdout, stderr: stderr.replace(`\n${line}\n`, '') });
      });
    });
    return { pid, done };
  }

  /** SIGKILL to every crawler still running (for clean-up). */
  killAll(): void {
    for (const child of this.#live.values()) child.kill('SIGKILL');
  }
}
