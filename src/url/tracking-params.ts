/** Click identifiers that ad platforms append to every landing URL (Google, Meta, Microsoft). */
const CLICK_IDS = new Set(['gclid', 'fbclid', 'msclkid']);

/**
 * True for a query parameter name that only tracks a visit and never changes the page:
 * any `utm_` name (`utm_source`, `utm_campaign`, ...) and the click ids `gclid`, `fbclid`
 * and `msclkid`. Case-insensitive, since tools write `UTM_Source` as often as `utm_source`.
 * The name is compared as given: pass it decoded (as `URLSearchParams` yields it), or with
 * escapes normalised as {@link normalizeUrl} does before it asks.
 *
 * @example
 * ```ts
 * isTrackingParam('utm_source'); // true
 * isTrackingParam('GCLID'); // true
 * isTrackingParam('page'); // false
 * ```
 */
export function isTrackingParam(name: string): boolean {
  // The shortest tracking name is 'utm_' or 'gclid'; shorter names skip the lower-casing.
  if (name.length < 4) return false;
  const lower = name.toLowerCase();
  return lower.startsWith('utm_') || CLICK_IDS.has(lower);
}
