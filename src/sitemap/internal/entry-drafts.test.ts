// urlDraft and resetDraft each list the draft's fields (one object shape, no per-entry
// allocation), so nothing in the types stops a field being added to one and not the other:
// a reused draft would then carry a value into the next entry. This holds them together.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resetDraft, type UrlDraft, urlDraft } from './entry-drafts.ts';

test('resetDraft empties every field urlDraft makes, and adds none', () => {
  const draft = urlDraft(3) as unknown as Record<string, unknown>;
  const fields = Object.keys(draft);
  assert.ok(fields.length >= 11, fields.join());
  for (const field of fields) draft[field] = { filledIn: field };
  const reset = resetDraft(draft as unknown as UrlDraft, 7);
  assert.equal(reset, draft as unknown as UrlDraft, 'the same object, reused');
  // Same keys in the same order (the one shape V8 compiled for), same empty values.
  assert.deepEqual(Object.keys(reset), Object.keys(urlDraft(7)));
  assert.deepEqual({ ...reset }, { ...urlDraft(7) });
});
