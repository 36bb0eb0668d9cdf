import { usageError } from './args.ts';

/** `15s`, `500ms`, `2m`, or a bare number of seconds, in milliseconds. */
export function parseDuration(command: string, option: string, text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (match === null)
    throw usageError(command, `${option} takes a duration like 15s, 500ms or 2m, not "${text}"`);
  const value = Number(match[1]);
  const unit = match[2] ?? 's';
  return unit === 'ms' ? value : unit === 'm' ? value * 60_000 : value * 1000;
}

const SIZE_UNITS: Readonly<Record<string, number>> = {
  '': 1,
  b: 1,
  kb: 1000,
  kib: 1024,
  mb: 1000 ** 2,
  mib: 1024 ** 2,
  gb: 1000 ** 3,
  gib: 1024 ** 3,
};

/** `10MB`, `500KiB`, `1048576` in bytes. */
export function parseSize(command: string, option: string, text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  const unit = SIZE_UNITS[(match?.[2] ?? '').toLowerCase()];
  if (match === null || unit === undefined) {
    throw usageError(command, `${option} takes a size like 10MB or 500KiB, not "${text}"`);
  }
  return Math.floor(Number(match[1]) * unit);
}

/** A whole number at least `min`. */
export function parseCount(command: string, option: string, text: string, min = 0): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) {
    throw usageError(
      command,
      `${option} takes a whole number${min > 0 ? ` from ${min}` : ''}, not "${text}"`,
    );
  }
  return value;
}
