import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Outside conformance data (Google's robots.txt suites, the robots.txt corpus, the sample
 * sitemaps and the official XSDs) lives in `../shared/fixtures/` beside the clone and is read
 * in place, never copied. WAYMARK_FIXTURES points elsewhere when needed.
 */
export const FIXTURES_DIR = (
  process.env['WAYMARK_FIXTURES'] ??
  fileURLToPath(new URL('../../../shared/fixtures/', import.meta.url))
).replace(/\/?$/, '/');

/**
 * Set to `1` (as `.ci/run` does), missing outside data fails the tests that need it instead
 * of skipping them, so CI can never pass without running them.
 */
export const REQUIRE_FIXTURES_VARIABLE = 'WAYMARK_REQUIRE_FIXTURES';
const required = process.env[REQUIRE_FIXTURES_VARIABLE] === '1';

const HOW_TO_GET =
  "put waymark's shared folder at ../shared beside the repository, or set WAYMARK_FIXTURES to its fixtures/ folder";

// The first skip in a test file says what is missing and how to get it; later ones only what.
let explained = false;

/** The first of `relative` that is missing, as an absolute path, where missing data skips. */
function skippedFor(relative: readonly string[]): string | undefined {
  if (required) return undefined;
  return relative.map((path) => FIXTURES_DIR + path).find((path) => !existsSync(path));
}

/**
 * Test options for a `describe` or `test` that reads the outside data at `relative` paths:
 * `{}` when they are there, else a skip whose reason names the missing path. With
 * WAYMARK_REQUIRE_FIXTURES=1 it never skips: the read then fails the test loudly.
 */
export function needsFixtures(...relative: string[]): { skip?: string } {
  const missing = skippedFor(relative);
  if (missing === undefined) return {};
  const reason = explained
    ? `needs outside conformance data: ${missing} is missing`
    : `needs outside conformance data: ${missing} is missing (${HOW_TO_GET})`;
  explained = true;
  return { skip: reason };
}

/** The absolute path of outside data; throws a clear error when it is missing. */
export function fixturePath(relative: string): string {
  const path = FIXTURES_DIR + relative;
  if (!existsSync(path)) {
    throw new Error(
      required
        ? `missing outside conformance data ${path}, required by ${REQUIRE_FIXTURES_VARIABLE}=1: ${HOW_TO_GET}`
        : `missing outside conformance data ${path}: ${HOW_TO_GET}`,
    );
  }
  return path;
}

export function readFixtureJson<T>(relative: string): T {
  return JSON.parse(readFileSync(fixturePath(relative), 'utf8')) as T;
}

/**
 * `readFixtureJson` for a file read when a test module loads: where the data is missing and
 * the tests that need it skip (see `needsFixtures`), `whenSkipped` stands in for it.
 */
export function readFixtureJsonOr<T>(relative: string, whenSkipped: T): T {
  return skippedFor([relative]) === undefined ? readFixtureJson<T>(relative) : whenSkipped;
}
