import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Outside test data lives in `../shared/fixtures/` beside the clone (CI puts it there) and
 * is read in place, never copied. WAYMARK_FIXTURES points elsewhere when needed.
 */
export const FIXTURES_DIR =
  process.env['WAYMARK_FIXTURES'] ??
  fileURLToPath(new URL('../../../shared/fixtures/', import.meta.url));

export function fixturePath(relative: string): string {
  const path = `${FIXTURES_DIR.replace(/\/?$/, '/')}${relative}`;
  if (!existsSync(path)) {
    throw new Error(
      `missing fixture ${path}: clone ../shared beside the repository or set WAYMARK_FIXTURES`,
    );
  }
  return path;
}

export function readFixtureJson<T>(relative: string): T {
  return JSON.parse(readFileSync(fixturePath(relative), 'utf8')) as T;
}
