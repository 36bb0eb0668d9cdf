import { type CliCommand, type CliIo, EXIT_OK } from '../io.ts';
import { usageError } from './args.ts';

/**
 * A command made of subcommands (`waymark robots check`): prints its help for `--help` or
 * no arguments, and hands the rest to the named subcommand. `summary` is in the style of
 * every command's (lower case, no full stop), as its parent lists it; the help opens with
 * `name: summary.`
 */
export function commandGroup(
  name: string,
  summary: string,
  subcommands: Readonly<Record<string, CliCommand>>,
): CliCommand {
  const help = () => {
    const width = Math.max(...Object.keys(subcommands).map((key) => key.length));
    const lines = Object.entries(subcommands).map(
      ([key, command]) => `  ${key.padEnd(width)}  ${command.summary}`,
    );
    return `${name}: ${summary}.\n\nUsage: ${name} <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun '${name} <command> --help' for a command's options.\n`;
  };
  return {
    summary,
    run: async (args: readonly string[], io: CliIo) => {
      const [first, ...rest] = args;
      if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
        io.stdout(help());
        return EXIT_OK;
      }
      const command = Object.hasOwn(subcommands, first) ? subcommands[first] : undefined;
      if (command === undefined) {
        throw usageError(
          name,
          first.startsWith('-') ? `unknown option ${first}` : `unknown command "${first}"`,
        );
      }
      return command.run(rest, io);
    },
  };
}
