import { type ParseArgsConfig, parseArgs } from 'node:util';
import { WaymarkError } from '../../shared/waymark-error.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/** A value people type that starts with a dash: `-1`, `-5s`, `-0.5`, `-.5`. */
const NEGATIVE_NUMBER = /^-\.?\d/;

/**
 * node:util parseArgs in strict mode, with its errors turned into usage errors that name the
 * command. `--help` is accepted by every command.
 */
export function parseCommandArgs<O extends Options>(
  command: string,
  args: readonly string[],
  options: O,
) {
  const all = { ...options, help: { type: 'boolean', short: 'h' } } satisfies Options;
  // What follows `--` is kept out of parseArgs and added to its positionals after: it adds
  // them with one spread call, which overflows the stack past some 120,000 arguments.
  const end = args.indexOf('--');
  try {
    const parsed = parseArgs({
      args: attachDashValues(command, end < 0 ? args : args.slice(0, end), all),
      options: all,
      allowPositionals: true,
      strict: true,
    });
    for (let i = end < 0 ? args.length : end + 1; i < args.length; i++) {
      parsed.positionals.push(args[i] as string);
    }
    return parsed;
  } catch (error) {
    if (error instanceof WaymarkError) throw error;
    // node's messages go on to explain `--`; the first sentence is the useful part.
    const message = error instanceof Error ? (error.message.split(/\.\s/)[0] ?? '') : String(error);
    throw usageError(command, message.charAt(0).toLowerCase() + message.slice(1));
  }
}

/**
 * parseArgs refuses a value that starts with a dash ("argument is ambiguous"), so
 * `--max-pages -1` never reached the check that would say what is wrong with -1. A negative
 * number after an option that takes a value is that option's value (`--max-pages=-1`), and
 * the option's own check names it; any other dash word there is an option, not a value, and
 * the error says how to pass such a value if one was meant. `args` are those before `--`.
 */
function attachDashValues(command: string, args: readonly string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const next = args[i + 1];
    const long = next?.startsWith('-') && next !== '-' ? optionTakingValue(arg, options) : null;
    if (long === null || next === undefined) {
      out.push(arg);
      continue;
    }
    if (!NEGATIVE_NUMBER.test(next)) {
      throw usageError(
        command,
        `${arg} needs a value, and ${next} is an option (for a value that starts with "-", write ${long}=${next})`,
      );
    }
    out.push(`${long}=${next}`);
    i++;
  }
  return out;
}

/** `--name` for an option written `--name` or `-n` that takes a value; else null. */
function optionTakingValue(arg: string, options: Options): string | null {
  if (arg.startsWith('--')) {
    const name = arg.slice(2);
    return Object.hasOwn(options, name) && options[name]?.type === 'string' ? arg : null;
  }
  if (arg.length !== 2 || arg[0] !== '-') return null;
  const entry = Object.entries(options).find(([, option]) => option.short === arg[1]);
  return entry !== undefined && entry[1].type === 'string' ? `--${entry[0]}` : null;
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
