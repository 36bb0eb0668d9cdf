import { type ParseArgsConfig, parseArgs } from 'node:util';
import { WaymarkError } from '../../shared/waymark-error.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * node:util parseArgs in strict mode, with its errors turned into usage errors that name the
 * command. `--help` is accepted by every command.
 */
export function parseCommandArgs<O extends Options>(
  command: string,
  args: readonly string[],
  options: O,
) {
  try {
    return parseArgs({
      args: [...args],
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    // node's messages go on to explain `--`; the first sentence is the useful part.
    const message = error instanceof Error ? (error.message.split(/\.\s/)[0] ?? '') : String(error);
    throw usageError(command, message.charAt(0).toLowerCase() + message.slice(1));
  }
}

export function usageError(command: string, message: string): WaymarkError {
  return new WaymarkError('usage', `${command}: ${message} (see '${command} --help')`);
}

/** The one `<url|file|->` argument of a sitemap command. */
export function oneSource(command: string, positionals: readonly string[]): string {
  const [source, ...extra] = positionals;
  if (source === undefined)
    throw usageError(command, 'missing the sitemap URL or file (or - for standard input)');
  if (extra.length > 0)
    throw usageError(command, `one sitemap at a time (got ${positionals.length})`);
  return source;
}
