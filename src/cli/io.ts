/**
 * Everything a command may touch outside itself. Commands get it as an argument, so tests
 * run them in-process with strings in and out, and nothing reads `process` on import.
 */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** A file as a stream of chunks (`-` is standard input); read whole only up to a cap. */
  readonly openFile: (path: string) => AsyncIterable<Uint8Array>;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Standard error is a terminal (live progress line) rather than a log. */
  readonly stderrIsTTY: boolean;
  /** waymark's version, for --version and the default User-Agent. */
  readonly version: string;
  /**
   * Takes over Ctrl-C and SIGTERM for a long command: the signal it returns fires on the
   * first one, so the command can stop cleanly, say how to go on and return
   * {@link EXIT_INTERRUPTED}; a second one ends the process at once. Commands that do not
   * call it are stopped by Ctrl-C as any program is.
   */
  readonly interrupts?: () => AbortSignal;
}

/** What every command module exports. */
export interface CliCommand {
  /** One line for the parent's help. */
  readonly summary: string;
  /** Returns the exit code: one of the `EXIT_` constants. */
  readonly run: (args: readonly string[], io: CliIo) => Promise<number>;
}

/** Done: the file was written, the check passed. */
export const EXIT_OK = 0;
/** Done, and the answer is bad: the check found problems, the crawl listed no page. */
export const EXIT_PROBLEMS = 1;
/** The command line is wrong (nothing was done). */
export const EXIT_USAGE = 2;
/** The job could not be done: the site or a file could not be reached, read or written. */
export const EXIT_FAILURE = 3;
/** Stopped by the user (Ctrl-C), as shells report SIGINT: 128 + 2. */
export const EXIT_INTERRUPTED = 130;
