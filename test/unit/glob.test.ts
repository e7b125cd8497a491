/** File-pattern globs: VS Code's syntax, and no pattern that can make matching take long. */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { kindFromFileName, matchesAny } from '../../shared/documentKind';

describe('file-pattern globs', () => {
  it('matches *, ?, ** and base-name patterns as before', () => {
    assert.ok(matchesAny('/w/a/b.state.json', ['**/*.state.json']));
    assert.ok(matchesAny('/w/.pulumi/stacks/p/dev.json', ['**/.pulumi/stacks/**/*.json']));
    assert.ok(matchesAny('/w/.pulumi/stacks/dev.json', ['**/.pulumi/stacks/**/*.json']));
    assert.ok(matchesAny('/w/x/quota.jsonc', ['quota.jsonc']));
    assert.ok(matchesAny('C:\\w\\dev1.quota.json', ['*.quota.json']));
    assert.ok(matchesAny('/w/a.json', ['?.json']));
    assert.ok(!matchesAny('/w/ab.json', ['?.json']));
    assert.ok(!matchesAny('/w/a/b.json', ['/w/*.json']));
    assert.ok(!matchesAny('/w/x.state.jsonx', ['**/*.state.json']));
    assert.equal(kindFromFileName('/w/p.quota.jsonc'), 'quota');
  });

  it('expands braces, including nested ones', () => {
    assert.ok(matchesAny('/w/prod/a.json', ['**/{prod,staging}/*.json']));
    assert.ok(matchesAny('/w/staging/a.json', ['**/{prod,staging}/*.json']));
    assert.ok(!matchesAny('/w/dev/a.json', ['**/{prod,staging}/*.json']));
    assert.ok(matchesAny('/w/a.quota.jsonc', ['**/*.quota.{json,jsonc}']));
    assert.ok(matchesAny('/w/eu-west.json', ['{us-{east,west},eu-{west,north}}.json']));
  });

  it('reads character classes, ranges and negation', () => {
    assert.ok(matchesAny('/w/dev3.json', ['dev[0-9].json']));
    assert.ok(!matchesAny('/w/devx.json', ['dev[0-9].json']));
    assert.ok(matchesAny('/w/devx.json', ['dev[!0-9].json']));
    assert.ok(matchesAny('/w/devb.json', ['dev[abc].json']));
    assert.ok(!matchesAny('/w/dev/.json', ['dev[!0-9].json']), 'a class never matches a separator');
    assert.ok(matchesAny('/w/dev[.json', ['dev[.json']), 'an unclosed [ is literal');
  });

  it('answers at once for patterns that make backtracking matchers run for minutes', () => {
    const name = `/w/${'a'.repeat(60)}`;
    assert.ok(!matchesAny(name, ['*a*a*a*a*a*a*a*a*a*a*a*a*b']));
    assert.ok(matchesAny(`${name}b`, ['*a*a*a*a*a*a*a*a*a*a*a*a*b']));
    assert.ok(!matchesAny(`/${'a/'.repeat(40)}x`, ['**/a/**/a/**/a/**/a/**/a/**/a/**/a/**/a/**/b']));
    assert.ok(!matchesAny(name, ['{*a,a*}{*a,a*}{*a,a*}{*a,a*}{*a,a*}{*a,a*}{*a,a*}{*a,a*}{*a,a*}{*a,a*}b']));
  });

  it('agrees with a regular-expression reading of *, ? and ** on small inputs', () => {
    const toRegExp = (glob: string) =>
      new RegExp(
        `^${glob
          .replace(/(^|\/)\*\*(\/\*\*)+(?=\/|$)/g, '$1**')
          .split('/')
          .map((part) => (part === '**' ? '\u0000' : part.replace(/\*+/g, '[^/]*').replace(/\?/g, '[^/]')))
          .join('/')
          .replace(/\u0000\//g, '(?:[^/]*/)*')
          .replace(/\/\u0000$/, '(?:/[^/]*)*')
          .replace(/^\u0000$/, '.*')}$`,
      );
    const glob = fc.array(fc.constantFrom('a', 'b', '*', '?', '/', '**/'), { maxLength: 7 }).map((parts) => parts.join(''));
    const path = fc.array(fc.constantFrom('a', 'b', '/'), { maxLength: 8 }).map((parts) => `x/${parts.join('')}`);
    fc.assert(
      fc.property(glob, path, (g, p) => {
        const pattern = `x/${g}`;
        assert.equal(matchesAny(p, [pattern]), toRegExp(pattern).test(p), `${pattern} on ${p}`);
      }),
      { numRuns: 2000 },
    );
  });
});
