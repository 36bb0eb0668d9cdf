import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type AliasProblem, MAX_ALIAS_LENGTH, ReservedPaths, validateAlias } from './index.ts';

const VALID: [alias: string, normalised: string][] = [
  ['about/team', 'about/team'],
  ['/about/team/', 'about/team'],
  ['a', 'a'],
  ['Docs/v1.2/read-me_now~', 'Docs/v1.2/read-me_now~'],
  ['identity', 'identity'],
  ['apis', 'apis'],
  ['sitemap', 'sitemap'],
  ['robots', 'robots'],
  ['x'.repeat(MAX_ALIAS_LENGTH), 'x'.repeat(MAX_ALIAS_LENGTH)],
];

const INVALID: [alias: unknown, problem: AliasProblem][] = [
  [42, 'not-a-string'],
  [null, 'not-a-string'],
  ['', 'empty'],
  ['/', 'empty'],
  ['x'.repeat(MAX_ALIAS_LENGTH + 1), 'too-long'],
  ['../etc/passwd', 'traversal'],
  ['a/../b', 'traversal'],
  ['./a', 'traversal'],
  ['a//b', 'empty-segment'],
  ['a b', 'bad-character'],
  ['a?b', 'bad-character'],
  ['a#b', 'bad-character'],
  ['a%2fb', 'bad-character'],
  ['a\\b', 'bad-character'],
  ['a"><x', 'bad-character'],
  ['über', 'bad-character'],
  ['a\nb', 'bad-character'],
  // Every built-in reserved path, as itself, with and without slash, in any case, and under it.
  ['robots.txt', 'reserved'],
  ['sitemap.xml', 'reserved'],
  ['sitemap_index.xml', 'reserved'],
  ['sitemaps', 'reserved'],
  ['sitemaps/sitemap-0001.xml', 'reserved'],
  ['id', 'reserved'],
  ['id/abcd', 'reserved'],
  ['login', 'reserved'],
  ['login/reset', 'reserved'],
  ['builtin/x', 'reserved'],
  ['api', 'reserved'],
  ['API/users', 'reserved'],
  ['admin', 'reserved'],
  ['admin/users', 'reserved'],
];

describe('validateAlias', () => {
  for (const [alias, normalised] of VALID) {
    test(`accepts ${JSON.stringify(alias.slice(0, 30))}`, () => {
      assert.deepEqual(validateAlias(alias), {
        valid: true,
        alias: normalised,
        path: `/${normalised}`,
      });
    });
  }
  for (const [alias, problem] of INVALID) {
    test(`refuses ${JSON.stringify(typeof alias === 'string' ? alias.slice(0, 30) : alias)} (${problem})`, () => {
      const result = validateAlias(alias);
      assert.equal(result.valid, false);
      if (!result.valid) {
        assert.equal(result.problem, problem);
        assert.ok(result.message.length > 10);
      }
    });
  }

  test('the configured admin path and extra reserved paths are refused', () => {
    const reserved = new ReservedPaths({
      adminPath: '/cms/',
      reserved: ['drafts/', { path: 'cart.html', publish: false }],
    });
    for (const alias of ['cms', 'cms/pages', 'drafts/x', 'cart.html']) {
      const result = validateAlias(alias, { reserved });
      assert.equal(result.valid, false, alias);
      if (!result.valid) assert.equal(result.problem, 'reserved');
    }
    assert.equal(
      validateAlias('admin', { reserved }).valid,
      true,
      'admin/ is free when the admin path is elsewhere',
    );
  });

  test('a collision names the other document', () => {
    const result = validateAlias('team', {
      takenBy: (alias) => (alias === 'team' ? 'people.md' : null),
    });
    assert.deepEqual(result, {
      valid: false,
      problem: 'collision',
      message: 'alias "team" is also claimed by "people.md"',
    });
  });

  test('messages say what is wrong', () => {
    const reserved = validateAlias('api/users');
    assert.ok(!reserved.valid && reserved.message === 'alias "api/users" is reserved (the API)');
  });
});
