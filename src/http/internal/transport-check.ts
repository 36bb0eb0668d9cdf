import { WaymarkError } from '../../shared/waymark-error.ts';

/**
 * `blockPrivateAddresses` makes its own connections to check where they go, so it cannot
 * run through a caller's `fetch`: refused up front (`invalid-argument`), by every function
 * that takes both options, before any request.
 */
export function checkTransportOptions(options: {
  readonly fetch?: unknown;
  readonly blockPrivateAddresses?: boolean;
}): void {
  if (options.blockPrivateAddresses === true && options.fetch !== undefined) {
    throw new WaymarkError(
      'invalid-argument',
      'blockPrivateAddresses checks the address it connects to, so it cannot use a custom fetch',
    );
  }
}
