import * as assert from 'node:assert/strict';
import { parsedYaml, yamlError as fails } from './helpers/evaYaml';

/**
 * Where libyaml 0.2.5 (serde_yaml 0.9, eva.md §2.1) reads directives, document markers, a
 * flow `?` with no key after it and an anchor ended by `?` or `:` otherwise than the yaml
 * library. Every expected value and position below is libyaml's own (PyYAML 6.0.3's
 * CSafeLoader on the same texts, problem_mark + 1).
 */
describe('Eva YAML: directives, markers and keys as libyaml reads them', () => {
  // Mappings are prototype-free records: compared as plain data.
  const ok = (text: string) => JSON.parse(JSON.stringify(parsedYaml(text).value)) as unknown;
  // serde_yaml's words leave out a place at line 1 column 1 (libyaml's mark 0:0).
  const at = (detail: string, line: number, column: number) =>
    `failed to parse YAML: ${detail}${line === 1 && column === 1 ? '' : ` at line ${line} column ${column}`}`;

  describe('a directive', () => {
    it('may have a comment with no white space before its `#` (the library read the version "1.1#c")', () => {
      assert.deepEqual(ok('%YAML 1.1#c\n---\nk: v\n'), { k: 'v' });
      assert.deepEqual(ok('%YAML 01.01\n---\nk: v\n'), { k: 'v' });
    });

    it('is refused as libyaml refuses it (the library warned, or read the document on)', () => {
      assert.equal(fails('%YAML 1.3\n---\nk: v\n').message, at('found incompatible YAML document', 1, 1));
      assert.equal(fails('%YAML 2.0\n---\nk: v\n').message, at('found incompatible YAML document', 1, 1));
      assert.equal(fails('%YAML 1.1\n%YAML 1.1\n---\nk: v\n').message, at('found duplicate %YAML directive', 2, 1));
      const twice = '%TAG !e! tag:e.com,2000:\n%TAG !e! tag:f.com,2000:\n---\nk: v\n';
      assert.equal(fails(twice).message, at('found duplicate %TAG directive', 2, 1));
      assert.equal(fails('%FOO bar\n---\nk: v\n').message, at('found unknown directive name', 1, 5));
      // A `#` is no URI character: the library read the prefix `tag:e.com,2000:#c`.
      const hash = '%TAG !e! tag:e.com,2000:#c\n---\nk: !e!x v\n';
      assert.equal(fails(hash).message, at('did not find expected whitespace or line break', 1, 25));
      assert.equal(
        fails('%TAG !e! tag:e%FF\n---\nk: v\n').message,
        at('found an incorrect leading UTF-8 octet', 1, 15),
      );
    });

    it("is refused in libyaml's words where both refuse it", () => {
      assert.equal(fails('%YAML 1.1 x\n---\nk: v\n').message, at('did not find expected comment or line break', 1, 11));
      assert.equal(fails('%YAML 1\n---\nk: v\n').message, at("did not find expected digit or '.' character", 1, 8));
      assert.equal(fails('%TAG !e tag:e\n---\nk: v\n').message, at("did not find expected '!'", 1, 8));
      assert.equal(fails('%YAML 1.1\nk: v\n').message, at('did not find expected <document start>', 2, 1));
      assert.equal(
        fails('%YAML 1.1\n- x\n').message,
        at('block sequence entries are not allowed in this context', 2, 1),
      );
      // A fault within the token after the directives comes first.
      assert.equal(
        fails('%YAML 1.1\n&x[ 1\n').message,
        at('did not find expected alphabetic or numeric character', 2, 3),
      );
    });

    it('after a `...` starts a document that needs its `---` (the library read none)', () => {
      assert.equal(fails('k: v\n...\n%YAML 1.1\n').message, at('did not find expected <document start>', 4, 1));
    });
  });

  it('skips a `...` after a `...` (the library read a second, empty document)', () => {
    assert.deepEqual(ok('k: v\n...\n...\n'), { k: 'v' });
    assert.deepEqual(ok('---\nk: v\n...\n... #c\n'), { k: 'v' });
    // Before the first document it stands where that document's node is expected.
    assert.equal(fails('... #c\n').message, at('did not find expected node content', 1, 1));
  });

  describe('a `?` in a flow collection', () => {
    it('followed at once by another is refused (the library read the text `??a`)', () => {
      assert.equal(fails('k: [??a]\n').message, at('did not find expected node content', 1, 6));
      assert.equal(fails('k: {??a}\n').message, at('did not find expected node content', 1, 6));
      assert.equal(fails('- [??]\n').message, at('did not find expected node content', 1, 5));
    });

    it('followed at once by `:` is the key indicator (the library read the key `?`)', () => {
      assert.deepEqual(ok('k: {?: a}\n'), { k: { null: 'a' } });
      assert.deepEqual(ok('k: {?:x}\n'), { k: { null: 'x' } });
      assert.deepEqual(ok('k: {? :x}\n'), { k: { null: 'x' } });
    });

    it("in a sequence, with no key, makes libyaml's parser skip the `]`, `,` or `:` after it", () => {
      const entryEnd = (line: number, column: number) => at("did not find expected ',' or ']'", line, column);
      assert.equal(fails('k: [?]\n').message, entryEnd(2, 1));
      assert.equal(fails('k: [? ]\nz: 1\n').message, entryEnd(2, 1));
      assert.equal(fails('k: [? # c\n]\n').message, entryEnd(3, 1));
      assert.equal(fails('k: [? , a]\n').message, entryEnd(1, 9));
      assert.equal(fails('k: [?: a]\n').message, entryEnd(1, 8));
      assert.equal(fails('k: [? : a, b]\n').message, entryEnd(1, 9));
      // Where a `,` or `]` follows what was skipped, libyaml reads on.
      assert.deepEqual(ok('k: [?,]\n'), { k: [{ null: null }] });
      assert.deepEqual(ok('k: [? :, a]\n'), { k: [{ null: null }, 'a'] });
      // In a mapping, and before properties, nothing is skipped.
      assert.deepEqual(ok('k: {?}\n'), { k: { null: null } });
      assert.deepEqual(ok('k: [? &a : a]\n'), { k: [{ null: 'a' }] });
    });
  });

  describe('an anchor or alias name', () => {
    it('ends at a `?` or `:` whatever follows: `&a:x` is the anchor `a` on the text `:x`', () => {
      assert.deepEqual(ok('k: &a:x\n'), { k: ':x' });
      assert.deepEqual(ok('k: &a?x\nj: *a\n'), { k: '?x', j: '?x' });
      assert.deepEqual(ok('- &a?x\n- *a\n'), ['?x', '?x']);
      assert.deepEqual(ok('&a?x: v\n'), { '?x': 'v' });
      assert.equal(fails('k: &a:x: v\n').message, at('mapping values are not allowed in this context', 1, 8));
      assert.equal(fails('k: *a:x\n').message, at('did not find expected key', 1, 6));
      // In a flow collection the `:` is the value indicator.
      assert.deepEqual(ok('k: [&a:x]\n'), { k: [{ null: 'x' }] });
      assert.deepEqual(ok('k: &a v\nj: {*a:x}\n'), { k: 'v', j: { v: 'x' } });
      assert.equal(fails('k: [&a?x]\n').message, at("did not find expected ',' or ']'", 1, 7));
    });

    it('before a `:` in a flow collection, after white space, leaves the `:` the value indicator', () => {
      assert.deepEqual(ok('k: [&a :x]\n'), { k: [{ null: 'x' }] });
      assert.deepEqual(ok('k: &a v\nj: [*a :x]\n'), { k: 'v', j: [{ v: 'x' }] });
    });
  });

  it("refuses an indicator after properties on their line in libyaml's words", () => {
    assert.equal(fails('k: &a? x\n').message, at('mapping keys are not allowed in this context', 1, 6));
    assert.equal(fails('- &a ? x\n').message, at('mapping keys are not allowed in this context', 1, 6));
    assert.equal(fails('- &a - x\n').message, at('block sequence entries are not allowed in this context', 1, 6));
    assert.equal(fails('[&a ? x]\n').message, at("did not find expected ',' or ']'", 1, 5));
    assert.equal(fails('{a: &b :x}\n').message, at("did not find expected ',' or '}'", 1, 8));
    assert.equal(fails('{a: &b ? x}\n').message, at("did not find expected ',' or '}'", 1, 8));
  });
});
