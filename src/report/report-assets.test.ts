import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { BUILD_COMMAND, buildReportAssets, GENERATED_FILE } from './build-report-assets.ts';

test('the committed report assets are built from the current client sources', async () => {
  const committed = readFileSync(GENERATED_FILE, 'utf8');
  const fresh = await buildReportAssets();
  assert.ok(
    committed === fresh,
    `src/report/internal/report-assets.generated.ts is stale: run \`${BUILD_COMMAND}\` and commit the result`,
  );
});

test('the page script bundles the robots engine and makes no request of its own', async () => {
  const { REPORT_SCRIPT, REPORT_CSS } = await import('./internal/report-assets.generated.ts');
  // The engine's own diagnostics text proves it is inside the bundle, not imported at run time.
  assert.match(REPORT_SCRIPT, /treated as unreachable, everything is disallowed/);
  for (const forbidden of [
    /\bfetch\(/,
    /XMLHttpRequest/,
    /sendBeacon/,
    /\bimport\(/,
    /new WebSocket/,
    /innerHTML/,
    /insertAdjacentHTML/,
    /document\.write/,
  ]) {
    assert.doesNotMatch(REPORT_SCRIPT, forbidden);
  }
  assert.doesNotMatch(REPORT_CSS, /url\(|@import/);
});
