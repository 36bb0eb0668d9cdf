/**
 * Everything a command may touch outside itself. Commands get it as an argument, so tests
 * run them in-process with strings in and out, and nothing reads `process` on import.
 */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** All of standard input. */
  readonly readStdin: () => Promise<Uint8Array>;
  readonly readFile: (path: string) => Promise<Uint8Array>;
  /** A file as a stream of chunks, for inputs too large to hold (`-` is standard input). */
  readonly openFile: (path: string) => AsyncIterable<Uint8Array>;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Standard error is a terminal (live progress line) rather than a log. */
  readonly stderrIsTTY: boolean;
  /** waymark's version, for --version and the default User-Agent. */
  readonly version: string;
}

/** What every command module exports. */
export interface CliCommand {
  /** One line for the parent's help. */
  readonly summary: string;
  /** Returns the exit code: 0 success, 1 the check found problems, 2 usage error. */
  readonly run: (args: readonly string[], io: CliIo) => Promise<number>;
}

export const EXIT_OK = 0;
export const EXIT_PROBLEMS = 1;
export const EXIT_USAGE = 2;
