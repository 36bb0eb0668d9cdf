/**
 * The message of anything thrown: an Error's own, else the value as text. A caller's fetch,
 * stream or abort reason may throw or reject with any value (`null`, a string), and reading
 * `.message` off it would throw a second error in place of the first.
 */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
