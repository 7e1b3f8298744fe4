import * as assert from 'node:assert/strict';
import { parsedYaml, yamlError as fails } from './helpers/evaYaml';

/**
 * A flow collection's implicit keys as libyaml 0.2.5 (serde_yaml 0.9, eva.md §2.1) scans them,
 * where the yaml library read a key libyaml does not. Every expected value and position below
 * is libyaml's own (PyYAML 6.0.3's CSafeLoader on the same texts, problem_mark + 1).
 */
describe('Eva YAML: implicit keys in a flow collection as libyaml reads them', () => {
  // Mappings are prototype-free records: compared as plain data.
  const ok = (text: string) => JSON.parse(JSON.stringify(parsedYaml(text).value)) as unknown;
  const at = (detail: string, line: number, column: number) =>
    `failed to parse YAML: ${detail} at line ${line} column ${column}`;

  describe('a key whose `:` is on a later line than where it starts', () => {
    it('is no key: the `:` is refused where an entry should end (the library read the key)', () => {
      assert.equal(fails('{a\nb: c}').message, at("did not find expected ',' or '}'", 2, 2));
      assert.equal(fails('{a\nb : c}').message, at("did not find expected ',' or '}'", 2, 3));
      assert.equal(fails('{a\n: c}').message, at("did not find expected ',' or '}'", 2, 1));
      assert.equal(fails('{"a\nb": c}').message, at("did not find expected ',' or '}'", 2, 3));
      assert.equal(fails("{'a\nb': c}").message, at("did not find expected ',' or '}'", 2, 3));
      assert.equal(fails('{a #c\n: c}').message, at("did not find expected ',' or '}'", 2, 1));
      assert.equal(fails('{a\n  b: c}').message, at("did not find expected ',' or '}'", 2, 4));
      assert.equal(fails('k: v\nj: {a: {b\nc: d}}\n').message, at("did not find expected ',' or '}'", 3, 2));
    });

    it('starts at its properties: an anchor or tag on the line before makes it one', () => {
      assert.equal(fails('{&x\na : c}').message, at("did not find expected ',' or '}'", 2, 3));
      assert.equal(fails('{!t\na : c}').message, at("did not find expected ',' or '}'", 2, 3));
      assert.equal(fails('[&x\na : c]').message, at("did not find expected ',' or ']'", 2, 3));
    });

    it("in a flow sequence is refused in libyaml's words, at the `:`", () => {
      assert.equal(fails('[a\nb: c]').message, at("did not find expected ',' or ']'", 2, 2));
      assert.equal(fails('[a\n: c]').message, at("did not find expected ',' or ']'", 2, 1));
    });

    it('as a block key libyaml requires, is refused as that key first, at the same place', () => {
      // The flow mapping is the block mapping's second key: libyaml requires it to end on its line.
      const required = 'a: &x 1\n{1#c\n&x a*x: c]';
      assert.equal(fails(required).message, at("could not find expected ':'", 3, 7));
    });

    it('in a flow sequence with no `,` before it is refused where it starts', () => {
      const text = ' [   device_class: scale\n    # c\nce name\n    \nlogical_name: main-scale\n';
      assert.equal(fails(text).message, at("did not find expected ',' or ']'", 3, 1));
    });

    it('after a `?` is a key as before', () => {
      assert.deepEqual(ok('{? a\nb : c}'), { 'a b': 'c' });
      assert.deepEqual(ok('{? a\n: c}'), { a: 'c' });
      assert.deepEqual(ok('k: {a: b,\n c: d}'), { k: { a: 'b', c: 'd' } });
    });
  });

  describe('a key longer than 1024 characters', () => {
    it('is no key (libyaml counts characters, not UTF-16 units)', () => {
      assert.equal(fails(`{${'a'.repeat(1025)}: c}`).message, at("did not find expected ',' or '}'", 1, 1027));
      assert.equal(fails(`k: {${'a'.repeat(1025)}: c}`).message, at("did not find expected ',' or '}'", 1, 1030));
      assert.equal(fails(`{"${'a'.repeat(1023)}": c}`).message, at("did not find expected ',' or '}'", 1, 1027));
      assert.equal(fails(`{${'😀'.repeat(1025)}: c}`).line, 1);
      assert.deepEqual(ok(`{${'a'.repeat(1024)}: c}`), { ['a'.repeat(1024)]: 'c' });
      assert.deepEqual(ok(`{${'😀'.repeat(1024)}: c}`), { ['😀'.repeat(1024)]: 'c' });
    });

    it("bounds a flow sequence's pair and a block mapping's key in characters too", () => {
      const key = '😀'.repeat(1024);
      assert.deepEqual(ok(`[${key}: c]`), [{ [key]: 'c' }]);
      assert.deepEqual(ok(`[x, &a ${'😀'.repeat(1021)}: c]`), ['x', { ['😀'.repeat(1021)]: 'c' }]);
      assert.deepEqual(ok(`${key}: c`), { [key]: 'c' });
      assert.deepEqual(ok(`- ${key}: c`), [{ [key]: 'c' }]);
      assert.deepEqual(ok(`"${'😀'.repeat(1022)}": c`), { ['😀'.repeat(1022)]: 'c' });
      assert.deepEqual(ok(`k:\n  &a !t ${'😀'.repeat(1018)}: c`), { k: { ['😀'.repeat(1018)]: 'c' } });
      // One character more is over, as before.
      assert.equal(fails(`[${key}😀: c]`).line, 1);
      assert.equal(fails(`${key}😀: c`).line, 1);
    });
  });

  describe('properties after a key with no `:` between', () => {
    it('start another node: refused where the entry should end (the library gave them to an empty value)', () => {
      assert.equal(fails("{'a' &x}").message, at("did not find expected ',' or '}'", 1, 6));
      assert.equal(fails('{"a"&x}').message, at("did not find expected ',' or '}'", 1, 5));
      assert.equal(fails("k: {'x\n y'&x\n}\n").message, at("did not find expected ',' or '}'", 2, 4));
      assert.equal(fails("{'a' !t,}").message, at("did not find expected ',' or '}'", 1, 6));
    });

    it("come after a fault libyaml's scanner finds in them or after them on the line", () => {
      assert.equal(fails("{'a' &x.y}").message, at('did not find expected alphabetic or numeric character', 1, 8));
      assert.equal(fails("{'a' !t}").message, at('did not find expected whitespace or line break', 1, 8));
    });
  });

  describe('a `?` in a flow collection before a `-` or a character no token starts with', () => {
    it('is refused as libyaml refuses it (the library read the text `?- x`)', () => {
      assert.equal(fails('[?- x]').message, at('did not find expected node content', 1, 3));
      assert.equal(fails('{?- x: 1}').message, at('did not find expected node content', 1, 3));
      assert.equal(fails('[?|]').message, at('found character that cannot start any token', 1, 3));
      assert.equal(fails('[?@]').message, at('found character that cannot start any token', 1, 3));
    });

    it('before a `-` and a flow indicator is the key `-`', () => {
      assert.deepEqual(ok('{?-}'), { '-': null });
      assert.deepEqual(ok('[?-x]'), [{ '-x': null }]);
    });
  });

  describe('a plain scalar followed by white space, then `:` and a flow indicator', () => {
    it('is refused where the `:` stands, as one right after the scalar is', () => {
      assert.equal(fails('{a :,}').message, at("found unexpected ':'", 1, 4));
      assert.equal(fails('{a  :}').message, at("found unexpected ':'", 1, 5));
      assert.equal(fails('[a :]').message, at("found unexpected ':'", 1, 4));
      assert.equal(fails('{a :[x]}').message, at("found unexpected ':'", 1, 4));
      assert.equal(fails('{a\n:,}').message, at("found unexpected ':'", 2, 1));
      assert.equal(fails('[a\n:]').message, at("found unexpected ':'", 2, 1));
      assert.equal(fails('k: &x v\nj: {&y,?a\n&y&y\n  :,}').message, at("found unexpected ':'", 4, 3));
    });

    it('is read as before where a quoted scalar or an alias stands, or a blank follows the `:`', () => {
      assert.deepEqual(ok('{"a" :,}'), { a: null });
      assert.deepEqual(ok('{a : ,}'), { a: null });
      assert.deepEqual(ok('[a :x]'), ['a :x']);
      assert.deepEqual(ok('{a #c\n, b}'), { a: null, b: null });
    });
  });
});
