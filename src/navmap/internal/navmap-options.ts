import { WaymarkError } from '../../shared/waymark-error.ts';
import { DEFAULT_MAX_NODES, MAX_NAVMAP_FILES } from '../navmap-names.ts';

/** The URL without its fragment (a document is the same document whatever the fragment). */
export function documentUrl(value: string): string {
  const url = URL.parse(value);
  if (url === null) throw new WaymarkError('invalid-argument', `not an absolute URL: ${value}`);
  url.hash = '';
  return url.href;
}

export function checkedMaxNodes(value: number | undefined): number {
  const max = value ?? DEFAULT_MAX_NODES;
  if (!(Number.isSafeInteger(max) && max > 0)) {
    throw new WaymarkError(
      'invalid-argument',
      `maxNodes must be a whole number above 0, got ${max}`,
    );
  }
  return max;
}

/** `maxFiles`: a whole number from 1 to 32 (a larger one is lowered to 32). */
export function checkedMaxFiles(value: number | undefined): number {
  const max = value ?? MAX_NAVMAP_FILES;
  if (!(Number.isSafeInteger(max) && max > 0)) {
    throw new WaymarkError(
      'invalid-argument',
      `maxFiles must be a whole number above 0, got ${max}`,
    );
  }
  return Math.min(max, MAX_NAVMAP_FILES);
}
