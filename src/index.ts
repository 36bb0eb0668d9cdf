/**
 * waymark: robots.txt and sitemaps for Node.js. Each capability has its own entry point
 * (`waymark/robots`, ...); this root holds what they share.
 *
 * @module
 */
export type { Diagnostic, Severity } from './shared/diagnostic.ts';
export { hasErrors } from './shared/diagnostic.ts';
export type { WaymarkErrorCode } from './shared/waymark-error.ts';
export { isWaymarkError, WaymarkError } from './shared/waymark-error.ts';
