import type { CliCommand, CliIo } from '../io.ts';

/**
 * A command whose module is imported only when it runs. `waymark sitemap parse` then loads
 * the sitemap reader and nothing of the crawler, the site server or PostgreSQL: importing
 * every command up front doubled the CPU time and added ~30 MB of RSS to a short command.
 * `summary` is shown in the parent's help without loading anything; a test holds it equal
 * to the loaded command's own.
 */
export function lazyCommand(summary: string, load: () => Promise<CliCommand>): LazyCommand {
  return {
    summary,
    load,
    run: async (args: readonly string[], io: CliIo) => (await load()).run(args, io),
  };
}

/** A {@link CliCommand} that can also hand over the command it stands for. */
export interface LazyCommand extends CliCommand {
  readonly load: () => Promise<CliCommand>;
}
