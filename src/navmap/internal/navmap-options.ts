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
  return positiveWhole('maxNodes', value ?? DEFAULT_MAX_NODES);
}

/** `maxFiles`: a whole number from 1 to 32 (a larger one is lowered to 32). */
export function checkedMaxFiles(value: number | undefined): number {
  return Math.min(positiveWhole('maxFiles', value ?? MAX_NAVMAP_FILES), MAX_NAVMAP_FILES);
}

function positiveWhole(name: string, value: number): number {
  if (!(Number.isSafeInteger(value) && value > 0)) {
    throw new WaymarkError(
      'invalid-argument',
      `${name} must be a whole number above 0, got ${value}`,
    );
  }
  return value;
}
