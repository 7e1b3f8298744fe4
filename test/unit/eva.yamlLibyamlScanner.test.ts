import * as assert from 'node:assert/strict';
import { parsedYaml, yamlError as fails } from './helpers/evaYaml';

/**
 * Where libyaml's scanner (serde_yaml 0.9, eva.md §2.1) and the yaml library disagree on
 * whether a text is YAML at all: quoted scalars continued at any indentation, tabs where a
 * token may start, a BOM that starts a line, the verbatim non-specific tag `!<!>`. Every
 * expected value and position below is libyaml's own (PyYAML 6.0.3's CSafeLoader on the same
 * texts, problem_mark + 1).
 */
describe('Eva YAML: texts read as libyaml scans them', () => {
  // Mappings are prototype-free records: compared as plain data.
  const ok = (text: string) => ({ value: JSON.parse(JSON.stringify(parsedYaml(text).value)) as unknown });
  // serde_yaml's words leave out a place at line 1 column 1 (libyaml's mark 0:0).
  const at = (detail: string, line: number, column: number) =>
    `failed to parse YAML: ${detail}${line === 1 && column === 1 ? '' : ` at line ${line} column ${column}`}`;

  describe('a quoted scalar continued on a line indented no more than its parent', () => {
    it('is folded as usual, as Eva reads it (the yaml library said "Missing closing quote")', () => {
      assert.deepEqual(ok('description: "a\nb"\nname: x').value, { description: 'a b', name: 'x' });
      assert.deepEqual(ok('k:\n  d: "a\n  b"\n').value, { k: { d: 'a b' } });
      assert.deepEqual(ok('k:\n  d: "a\nb"\n  e: 1\n').value, { k: { d: 'a b', e: 1 } });
      assert.deepEqual(ok('k:\n  d: "a\nb"\ne: 1\n').value, { k: { d: 'a b' }, e: 1 });
      assert.deepEqual(ok("a: 'x\ny'\n").value, { a: 'x y' });
      assert.deepEqual(ok("a: 'x\n\ny'\n").value, { a: 'x\ny' });
      assert.deepEqual(ok('a: "x\n\ty"\n').value, { a: 'x y' });
      assert.deepEqual(ok('- "a\nb"\n').value, ['a b']);
      assert.deepEqual(ok('k: ["a\nb"]\n').value, { k: ['a b'] });
      assert.deepEqual(ok('? "a\nb"\n: 1\n').value, { 'a b': 1 });
    });

    it('keeps a line feed for each empty line after an escaped line break (the yaml library folded the first to a space)', () => {
      assert.deepEqual(ok('k: "a\\\n\n  b"').value, { k: 'a\nb' });
      assert.deepEqual(ok('k: "a\\\n  \n  b"').value, { k: 'a\nb' });
      assert.deepEqual(ok('k: "a\\\n\n\n  b"').value, { k: 'a\n\nb' });
      assert.deepEqual(ok('k: "a \\\n\n  b"').value, { k: 'a \nb' });
      assert.deepEqual(ok('k: "a\\\r\n\r\n  b"').value, { k: 'a\nb' });
      assert.deepEqual(ok('- "a\\\n \t\n b\\\n\n"').value, ['a\nb\n']);
      assert.deepEqual(ok('k: "x\\ty \\\n\n\t z \\u00e9\\\n\n\n w\n\n v "').value, { k: 'x\ty \nz é\n\nw\nv ' });
      // With no empty line after it, as before.
      assert.deepEqual(ok('k: "a\\\n  b"').value, { k: 'ab' });
    });

    it("keeps LS and PS in a flow scalar's value, where libyaml breaks the line (the yaml library folded them to a space)", () => {
      assert.deepEqual(ok('k: "x\u2028y"').value, { k: 'x\u2028y' });
      assert.deepEqual(ok('k: "a \u2029 b\n c"').value, { k: 'a\u2029b c' });
      assert.deepEqual(ok("k: 'it''s\u2028 a'").value, { k: "it's\u2028a" });
      assert.deepEqual(ok('k: a\u2028\u2028  b c').value, { k: 'a\u2028\u2028b c' });
      assert.deepEqual(ok('- a \u2029 b').value, ['a\u2029b']);
    });

    it('still ends at a document marker, and is no implicit key', () => {
      assert.ok(fails('- "a\n---\nb"\n'));
      assert.ok(fails('a: "x\n...\n"\n'));
      assert.ok(fails('"a\nb": 1\n'));
    });

    it('is unterminated when the text ends on an escaped quote', () => {
      assert.equal(fails('01: "a\\"').message, at('found unexpected end of stream', 1, 9));
      assert.deepEqual(ok('01: "a\\\\"').value, { '01': 'a\\' });
    });
  });

  describe('a tab', () => {
    it('where a simple key may start, in block context: "found character that cannot start any token"', () => {
      const refused = (line: number, column: number) => at('found character that cannot start any token', line, column);
      assert.equal(fails('-\tx').message, refused(1, 2));
      assert.equal(fails('- \tx').message, refused(1, 3));
      assert.equal(fails('- a\n-\tb\n').message, refused(2, 2));
      assert.equal(fails('? \tx\n').message, refused(1, 3));
      assert.equal(fails('a: "1"\n\t\nb: 2\n').message, refused(2, 1));
      assert.equal(fails('a:\n\tb: 1\n').message, refused(2, 1));
      assert.equal(fails('a:\n  \tb: 1\n').message, refused(2, 3));
      assert.equal(fails('\tx').message, refused(1, 1));
    });

    it('in a plain scalar\'s indentation, left of its block\'s column: "violates indentation"', () => {
      const refused = (line: number, column: number) =>
        at('found a tab character that violates indentation', line, column);
      assert.equal(fails('a: 1\n\t\nb: 2\n').message, refused(2, 1));
      assert.equal(fails('a: 1\n\t# c\n').message, refused(2, 1));
      assert.equal(fails('a: 1\n\t').message, refused(2, 1));
      assert.equal(fails('a: b\n\t c\n').message, refused(2, 1));
    });

    it('in a block scalar\'s indentation: "where an indentation space is expected"', () => {
      const refused = (line: number, column: number) =>
        at('found a tab character where an indentation space is expected', line, column);
      assert.equal(fails('a: |\n  \ta\n').message, refused(2, 3));
      assert.equal(fails('a\t: |\n  \ta').message, refused(2, 3));
      assert.equal(fails('a: |\n  x\n\t\n').message, refused(3, 1));
      assert.equal(fails('a: |\n  x\n \t\n').message, refused(3, 2));
    });

    it('is white space where libyaml skips it', () => {
      assert.deepEqual(ok('a:\tb').value, { a: 'b' });
      assert.deepEqual(ok('a: \tb').value, { a: 'b' });
      assert.deepEqual(ok('a\t: 1').value, { a: 1 });
      assert.deepEqual(ok('a: 1 \t# c\n').value, { a: 1 });
      assert.deepEqual(ok('a: 1\n \t\nb: 2\n').value, { a: 1, b: 2 });
      assert.deepEqual(ok('a: b\n \tc\n').value, { a: 'b c' });
      assert.deepEqual(ok('a: &x\tb\n').value, { a: 'b' });
      assert.deepEqual(ok('a:\t# c\n  b: 1\n').value, { a: { b: 1 } });
      assert.deepEqual(ok('[a,\tb]').value, ['a', 'b']);
      assert.deepEqual(ok('a: |\n  x\n  \ty\n').value, { a: 'x\n\ty\n' });
      assert.deepEqual(ok('a: "x"\t\n').value, { a: 'x' });
    });
  });

  describe('a BOM at the start of a line', () => {
    it('is skipped as one column of indentation', () => {
      assert.deepEqual(ok('a: 1\n#c\n\ufeff').value, { a: 1 });
      assert.deepEqual(ok('-\n\ufeff').value, [null]);
      // libyaml: "did not find expected key" at line 4 column 2 (the parser's own words and place differ).
      assert.ok(fails('a: |\n  a\n\n\ufeffa: 1\n'));
      assert.ok(fails('a: "x"\n\ufeffb: 2\n'));
    });

    it('is text inside a quoted scalar, a flow collection or a plain scalar at the root', () => {
      assert.deepEqual(ok('a: "x\n\ufeffy"\n').value, { a: 'x \ufeffy' });
      assert.deepEqual(ok('k: [a\n\ufeffb]').value, { k: ['a \ufeffb'] });
      assert.deepEqual(ok('a\n\ufeffb').value, 'a \ufeffb');
    });

    it('ends a plain scalar in block context, and what follows is refused (the yaml library read it on)', () => {
      const key = (line: number, column: number) => at('did not find expected key', line, column);
      const dash = (line: number, column: number) => at("did not find expected '-' indicator", line, column);
      assert.equal(fails('k: a\n\ufeffb').message, key(2, 2));
      assert.equal(fails('k: a\n\ufeff\n b').message, key(3, 2));
      assert.equal(fails('k:\n  j: a\n\ufeff   b').message, key(3, 5));
      // Skillgate read the key `\ufeff  b` here.
      assert.equal(fails('k: a\n\ufeff  b: 1').message, key(2, 4));
      assert.equal(fails('- a\n\ufeffb').message, dash(2, 2));
      assert.equal(fails('k:\n  - a\n\ufeff  b').message, dash(3, 4));
      // A sequence at its mapping's indentation ends there: the mapping expects a key.
      assert.equal(fails('k:\n- a\n\ufeffb').message, key(3, 2));
    });
  });

  describe('a flow collection', () => {
    it('goes on at any indentation, its plain scalars too (the yaml library said "must be sufficiently indented")', () => {
      assert.deepEqual(ok('k: [a,\nb]').value, { k: ['a', 'b'] });
      assert.deepEqual(ok('k:\n  x: [a,\nb]').value, { k: { x: ['a', 'b'] } });
      assert.deepEqual(ok('k:\n  x: [a,\n  b]\n  y: 1').value, { k: { x: ['a', 'b'], y: 1 } });
      assert.deepEqual(ok('k:\n  x: [a,\n b]\ny: 1').value, { k: { x: ['a', 'b'] }, y: 1 });
      assert.deepEqual(ok('- [a,\nb]').value, [['a', 'b']]);
      assert.deepEqual(ok('k: {a: 1,\nb: 2}').value, { k: { a: 1, b: 2 } });
      assert.deepEqual(ok('a:\n  b: {c: [1,\n2], d: 3}\n  e: 4').value, { a: { b: { c: [1, 2], d: 3 }, e: 4 } });
      assert.deepEqual(ok('k: [a\nb]').value, { k: ['a b'] });
      assert.deepEqual(ok('k: [a,\n\tb]').value, { k: ['a', 'b'] });
      assert.deepEqual(ok('k: [a,\n  ---\n]').value, { k: ['a', '---'] });
      // A document marker at the start of a line still ends it (libyaml: "did not find expected node content").
      assert.ok(fails('k: [a,\n---\n]'));
      assert.ok(fails('k: [a,\n...\n]'));
    });

    it('reads a comment that starts a line in it (the yaml library asked for white space before the `#`)', () => {
      assert.deepEqual(ok('k0: {a: b\n# c\n }').value, { k0: { a: 'b' } });
      assert.deepEqual(ok('k0: {a: [\n# c\n ]\n# c\n }').value, { k0: { a: [] } });
      assert.deepEqual(ok('{a:\n# c\n b}').value, { a: 'b' });
      assert.deepEqual(ok('{a: b#c\n}').value, { a: 'b#c' });
    });

    it('refuses a `:` right after a plain scalar when a flow indicator follows it: "found unexpected \':\'"', () => {
      const refused = (line: number, column: number) => at("found unexpected ':'", line, column);
      assert.equal(fails('k0: {b:[x]}').message, refused(1, 7));
      assert.equal(fails('{a:{c: 1}}').message, refused(1, 3));
      assert.equal(fails('[a:,b]').message, refused(1, 3));
      assert.equal(fails('{a:}').message, refused(1, 3));
      assert.equal(fails('{a:?b}').message, refused(1, 3));
      // Quoted keys, a space, or other text after the `:` are read as before.
      assert.deepEqual(ok('{"a":[1]}').value, { a: [1] });
      assert.deepEqual(ok('{a: [1]}').value, { a: [1] });
      assert.deepEqual(ok('{a:b}').value, { 'a:b': null });
      assert.deepEqual(ok('k:[a]').value, 'k:[a]');
    });
  });

  describe('the key indicators `?` and `:`', () => {
    it('finds no empty implicit key in block context: "did not find expected key" at the `:`', () => {
      const refused = (line: number, column: number) => at('did not find expected key', line, column);
      assert.equal(fails(': a').message, refused(1, 1));
      assert.equal(fails('k: v\n: a').message, refused(2, 1));
      assert.equal(fails('k:\n  : a').message, refused(2, 3));
      assert.equal(fails('k: v\n  : a').message, refused(2, 3));
      assert.equal(fails('- - : a').message, refused(1, 5));
      assert.equal(fails('? : a').message, refused(1, 3));
      assert.equal(fails('? a\n: b\n: c').message, refused(3, 1));
      assert.equal(fails('a:\n- b\n: c').message, refused(3, 1));
      assert.equal(fails('k: |\n  : a\n: b').message, refused(3, 1));
      assert.equal(fails('&a\n: b').message, refused(2, 1));
      // The first error in the text is the one reported.
      assert.equal(fails(': "\\ud800"').message, refused(1, 1));
      assert.equal(fails('a: "\\ud800"\n: b').message, at('found invalid Unicode character escape code', 1, 7));
      assert.equal(fails('a: \t1\n: 2').message, refused(2, 1));
    });

    it('finds no empty implicit key in flow context: "did not find expected node content"', () => {
      const refused = (line: number, column: number) => at('did not find expected node content', line, column);
      assert.equal(fails('{: a}').message, refused(1, 2));
      assert.equal(fails('[: a]').message, refused(1, 2));
      assert.equal(fails('{a: 1, : b}').message, refused(1, 8));
      assert.equal(fails('[a, :]').message, refused(1, 5));
      assert.equal(fails('{a: [b, : c]}').message, refused(1, 9));
    });

    it('reads an empty key that is written: after `?`, or of an anchor or tag alone', () => {
      assert.deepEqual(ok('?\n: a').value, { null: 'a' });
      assert.deepEqual(ok('{? : a}').value, { null: 'a' });
      assert.deepEqual(ok('-  &b : a\n').value, [{ null: 'a' }]);
      assert.deepEqual(ok('!!str : a').value, { '': 'a' });
    });

    it('takes `:` starting a plain scalar in flow context for the indicator', () => {
      const refused = (line: number, column: number) => at('did not find expected node content', line, column);
      assert.equal(fails('[a, :b]').message, refused(1, 5));
      assert.equal(fails('k: [:x]').message, refused(1, 5));
      assert.equal(fails('{:x: 1}').message, refused(1, 2));
      assert.equal(fails('x: [a, "b", :c]').message, refused(1, 13));
      assert.equal(fails('[a: :b]').message, refused(1, 5));
      // In block context, and inside a flow scalar, it is text.
      assert.deepEqual(ok(':x: 1').value, { ':x': 1 });
      assert.deepEqual(ok('- :x').value, [':x']);
      assert.deepEqual(ok('{a:b}').value, { 'a:b': null });
    });

    it('takes `?` starting a plain scalar in flow context for the explicit key (the yaml library read the text `?a`)', () => {
      assert.deepEqual(ok('{?a: 1}').value, { a: 1 });
      assert.deepEqual(ok('{?a}').value, { a: null });
      assert.deepEqual(ok('{?a, b: 1}').value, { a: null, b: 1 });
      assert.deepEqual(ok('[?a]').value, [{ a: null }]);
      assert.deepEqual(ok('k: [?a, b]').value, { k: [{ a: null }, 'b'] });
      assert.deepEqual(ok('[a, ?b: c]').value, ['a', { b: 'c' }]);
      assert.deepEqual(ok('[?a b: c]').value, [{ 'a b': 'c' }]);
      assert.deepEqual(ok('[?a\n b]').value, [{ 'a b': null }]);
      assert.deepEqual(ok('[?a:b]').value, [{ 'a:b': null }]);
      assert.deepEqual(ok('[?x#c]').value, [{ 'x#c': null }]);
      assert.deepEqual(ok('[?-a]').value, [{ '-a': null }]);
      assert.deepEqual(ok('{?x #c\n: 1}').value, { x: 1 });
      // A key Eva reads under its own name: a second one is a duplicate, as in serde_yaml.
      assert.equal(fails('{?a: 1, a: 2}').message, 'failed to parse YAML: duplicate entry with key "a"');
      // In block context it is text.
      assert.deepEqual(ok('- ?a').value, ['?a']);
    });

    it('refuses `?` where a value stands, or after an anchor or tag', () => {
      assert.equal(fails('{a: ?b}').message, at('did not find expected node content', 1, 5));
      assert.equal(fails('{?a: ?b}').message, at('did not find expected node content', 1, 6));
      assert.equal(fails('[? ?a]').message, at('did not find expected node content', 1, 4));
      assert.equal(fails('[!!str ?a]').message, at("did not find expected ',' or ']'", 1, 8));
      assert.equal(fails('[&x ?a]').message, at("did not find expected ',' or ']'", 1, 5));
      assert.equal(fails('{&x ?a: 1}').message, at("did not find expected ',' or '}'", 1, 5));
    });
  });

  it('names anchors and aliases with ASCII letters, digits, `-` and `_` only, as libyaml does', () => {
    const refused = (line: number, column: number) =>
      at('did not find expected alphabetic or numeric character', line, column);
    assert.equal(fails('a: &a.b x').message, refused(1, 6));
    assert.equal(fails('a: &é x').message, refused(1, 5));
    assert.equal(fails('&a.b x').message, refused(1, 3));
    assert.equal(fails('--- &r.1\na: 1').message, refused(1, 7));
    assert.equal(fails('a: &a x\nb: *a.b').message, refused(2, 6));
    assert.equal(fails('a: &a x\nb: [*a.c]').message, refused(2, 7));
    // A name the library ends at `[` or `{`: libyaml does not.
    assert.equal(fails('- &x[ 1').message, refused(1, 5));
    // libyaml ends the name at `@`, then finds no token.
    assert.equal(fails('a: &a@ x').message, at('found character that cannot start any token', 1, 6));
    assert.deepEqual(ok('a: &a1-_Z x\nb: *a1-_Z').value, { a: 'x', b: 'x' });
    // In a tag, `&` is text.
    assert.ok(parsedYaml('a: !t&b x'));
  });

  it('ends an anchor or alias name at a `:` that is the value indicator, as libyaml does', () => {
    // The library read `*k:` as the alias `k:` and then failed ("did not find expected <document start>").
    assert.deepEqual(ok('a: &k x\n*k: 1\n').value, { a: 'x', x: 1 });
    assert.deepEqual(ok('a: &k x\nb: {*k: 1}\n').value, { a: 'x', b: { x: 1 } });
    assert.deepEqual(ok('a: &k x\nb: {*k:, c: 2}\n').value, { a: 'x', b: { x: null, c: 2 } });
    assert.equal(fails('*a: 1\n').message, at('unknown anchor a', 1, 1));
    assert.equal(fails('&a x: 1\n*a: 2\n').message, 'failed to parse YAML: duplicate entry with key "x"');
    // `&a: x` is the anchor `a` on an empty key, as `&a : x` is (the library read the anchor `a:` on `x`).
    assert.deepEqual(ok('- &a: x\n').value, ok('- &a : x\n').value);
    assert.deepEqual(ok('- &a: x\n').value, [{ null: 'x' }]);
    // Properties starting a line before such a `:` are the empty key's, not the outer value's.
    assert.deepEqual(ok('k:\n  &a : false\n').value, { k: { null: false } });
    assert.deepEqual(ok('k:\n  # c\n  &a: false\n  b: 2\n').value, { k: { null: false, b: 2 } });
    assert.deepEqual(ok('k: &a\n  b: 1\n').value, { k: { b: 1 } });
  });

  it('reads `?` in a flow collection as the key indicator before a quote, a comment or properties', () => {
    // The library read the text `?"q"`; a quoted key may hold flow indicators.
    assert.deepEqual(ok('k: [?"q"]\n').value, { k: [{ q: null }] });
    assert.deepEqual(ok("k: {?'q': 1}\n").value, { k: { q: 1 } });
    assert.deepEqual(ok('k: [?"a,b": c]\n').value, { k: [{ 'a,b': 'c' }] });
    assert.deepEqual(ok('k: {?#c\n a: 1}\n').value, { k: { a: 1 } });
    assert.deepEqual(ok('k: {?&a x: 1}\n').value, { k: { x: 1 } });
    assert.deepEqual(ok('k: &a v\nj: [?*a]\n').value, { k: 'v', j: [{ v: null }] });
    // Where a value stands, or after properties, libyaml refuses it as before.
    assert.equal(fails('k: {a: ?"b"}\n').message, at('did not find expected node content', 1, 8));
    assert.equal(fails('k: [? ?"a"]\n').message, at('did not find expected node content', 1, 7));
    assert.equal(fails('k: [&x ?"a"]\n').message, at("did not find expected ',' or ']'", 1, 8));
  });

  it("reads a block scalar whose header stands at its key's indentation as that key's value", () => {
    // The library took the header for the next key: "Implicit keys need to be on a single line".
    assert.deepEqual(ok('- run:\n  |\n    echo hi\n').value, [{ run: 'echo hi\n' }]);
    assert.deepEqual(ok('- k:\n  >-\n    x\n  j: 1\n').value, [{ k: 'x', j: 1 }]);
    assert.deepEqual(ok('k:\n# c\n|\n  x\nj:\n>\n  y\nl: 2\n').value, { k: 'x\n', j: 'y\n', l: 2 });
    assert.deepEqual(ok('? a\n:\n|\n  x\n').value, { a: 'x\n' });
    // Empty lines after it, before the next key or the end.
    assert.deepEqual(ok('k:\n|\n  x\n\n\nj: 1\n').value, { k: 'x\n', j: 1 });
    assert.deepEqual(ok('  limits:\n  |\n    m: 1\n    # c\n    e: 2\n\n').value, { limits: 'm: 1\n# c\ne: 2\n' });
    // Properties before the header start a key to libyaml, and a header after a value is no
    // value: both refused, as before (libyaml stops earlier, at 2:4 and 3:1).
    assert.ok(fails('k:\n&a |\n  x\nj: *a\n'));
    assert.ok(fails('k:\n  - a\n|\n  x\n'));
  });

  it('finds no key in the lines after an explicit key less indented than its first entry', () => {
    // The library kept them as a value with no `:` and dropped them: ` ? a: b` read as `{a: b}: null`.
    assert.equal(fails(' ? a: b\n  c: d\n').message, at('did not find expected key', 2, 3));
    assert.equal(fails('?   - a\n  - b\n').message, at('did not find expected key', 2, 3));
    assert.deepEqual(ok('? a\n  b\n: c\n').value, { 'a b': 'c' });
  });

  it('reads a `-` in a flow collection as the text `-` unless white space follows it', () => {
    // `-` for standard input is a common argument; the library refused it in a flow collection.
    assert.deepEqual(ok('args: [-, x]\n').value, { args: ['-', 'x'] });
    assert.deepEqual(ok('args: [x, -]\n').value, { args: ['x', '-'] });
    assert.deepEqual(ok('args: {a: -}\n').value, { args: { a: '-' } });
    assert.deepEqual(ok('args: [&s -, *s]\n').value, { args: ['-', '-'] });
    // Before white space it is the block sequence's indicator, which a flow collection cannot hold.
    assert.equal(fails('args: [ - ]\n').message, at('did not find expected node content', 1, 9));
    assert.equal(fails('args: [a, -\n]\n').message, at('did not find expected node content', 1, 11));
  });

  it('reads a comment with no white space before it after a flow indicator, a quote or a block header', () => {
    // The library refused each: "Comments must be separated from other tokens by white space characters".
    assert.deepEqual(ok('k: {#c\n}\n').value, { k: {} });
    assert.deepEqual(ok('k: [a,#c\n b]\n').value, { k: ['a', 'b'] });
    assert.deepEqual(ok('k: [a]#c\nj: 2\n').value, { k: ['a'], j: 2 });
    assert.deepEqual(ok('k: "v"#c\nj: 1\n').value, { k: 'v', j: 1 });
    assert.deepEqual(ok("k: {a: 'b'#c\n}\n").value, { k: { a: 'b' } });
    assert.deepEqual(ok('k: |#c\n  a\n').value, { k: 'a\n' });
    assert.deepEqual(ok('k: >-#c\n  a\n').value, { k: 'a' });
    // After a plain scalar the `#` is text, for both.
    assert.deepEqual(ok('k: -#c\n').value, { k: '-#c' });
  });

  it('ends a tag where libyaml does, and wants white space after it (or a `,` in a flow collection)', () => {
    const refused = (line: number, column: number) =>
      at('did not find expected whitespace or line break', line, column);
    // `#` is no URI character to libyaml: the library read the tag `!t#c`.
    assert.equal(fails('k: !t#c x\n').message, refused(1, 6));
    assert.equal(fails('k: &a !t#c x\n').message, refused(1, 9));
    // A flow close after a tag: the library read a tagged null.
    assert.equal(fails('k: [!t]\n').message, refused(1, 7));
    assert.equal(fails('k: {a: !t}\n').message, refused(1, 10));
    assert.equal(fails('k: [!]\n').message, refused(1, 6));
    assert.equal(fails('k: !t[a]\n').message, refused(1, 6));
    assert.equal(fails('k: !<x>a\n').message, refused(1, 8));
    assert.deepEqual(ok('k: [!!str ,a]\n').value, ok('k: [!!str,a]\n').value);
    assert.ok(parsedYaml('k: !t\tx\n'));
  });

  it('reads `!<!>` as the non-specific tag `!`, as `! x`', () => {
    assert.deepEqual(ok('a: !<!> 1\n').value, ok('a: ! 1\n').value);
    assert.deepEqual(ok('!<!> x').value, ok('! x').value);
    assert.ok(fails('a: !<!>x\n'));
  });

  it("decodes a tag's %-escapes wherever libyaml does: a %TAG prefix, a verbatim tag, a `!` suffix", () => {
    // The tag as resolved: a tag that is not local leaves no trace in the value (serde_yaml reads it
    // through), so the scalar's own tag is read.
    const tagOf = (text: string) => parsedYaml(text).scalarAt(['k'])?.tag;
    // A core tag once decoded: libyaml's `!!str`, so `5` is the string Eva reads.
    assert.deepEqual(ok('k: !<tag:yaml.org,2002:st%72> 5\n').value, { k: '5' });
    assert.deepEqual(ok('%TAG !e! tag:yaml.org%2C2002:\n---\nk: !e!str 5\n').value, { k: '5' });
    assert.deepEqual(ok('%TAG ! tag:yaml.org%2C2002:\n---\nk: !str 5\n').value, { k: '5' });
    assert.deepEqual(ok('k: !<tag:yaml.org,2002:bo%6Fl> true\n').value, { k: true });
    assert.equal(tagOf('%TAG !e! tag:x%21,2000:\n---\nk: !e!a b\n'), 'tag:x!,2000:a');
    assert.equal(tagOf('k: !<tag:e%C3%A9> b\n'), 'tag:e\u00e9');
    assert.equal(tagOf('k: !a%C3%A9 b\n'), '!a\u00e9');
    // Decoded once: `%25` is a `%` in the tag.
    assert.equal(tagOf('k: !a%2541 b\n'), '!a%41');
    assert.equal(tagOf('%TAG !e! tag:a%2541\n---\nk: !e!b%2542 b\n'), 'tag:a%41b%42');
  });

  it("refuses a tag's escape or a verbatim tag's character that libyaml refuses", () => {
    assert.equal(fails('k: !<tag:%zz> a\n').message, at('did not find URI escaped octet', 1, 10));
    assert.equal(fails('k: !<tag:%C3> a\n').message, at('did not find URI escaped octet', 1, 13));
    assert.equal(fails('k: !<a%80> x\n').message, at('found an incorrect leading UTF-8 octet', 1, 7));
    assert.equal(fails('k: !<a%C3%28> x\n').message, at('found an incorrect trailing UTF-8 octet', 1, 10));
    assert.equal(fails('k: !a%C3 x\n').message, at('did not find URI escaped octet', 1, 9));
    assert.equal(fails('k: !a%FF x\n').message, at('found an incorrect leading UTF-8 octet', 1, 6));
    assert.equal(fails('k: !%zz a\n').message, at('did not find URI escaped octet', 1, 5));
    // A verbatim tag's URI holds URI characters only, one at least, and ends at its `>`.
    assert.equal(fails('k: !<a{b> x\n').message, at("did not find the expected '>'", 1, 7));
    assert.equal(fails('k: !<a|b> x\n').message, at("did not find the expected '>'", 1, 7));
    assert.equal(fails('k: !<a b> x\n').message, at("did not find the expected '>'", 1, 7));
    assert.equal(fails('k: !<\u00e9> x\n').message, at('did not find expected tag URI', 1, 6));
    assert.equal(fails('k: !<> x\n').message, at('did not find expected tag URI', 1, 6));
    // A verbatim tag with no leading `!` is no local tag to serde_yaml: its scalar is the string.
    assert.equal(parsedYaml('k: [!<a,b[c]> x]\n').scalarAt(['k', 0])?.tag, 'a,b[c]');
    assert.deepEqual(ok('k: [!<a,b[c]> x]\n').value, { k: ['x'] });
    // A handle with no suffix, its prefix escaped or not (the library: "The !! tag has no suffix").
    assert.equal(fails('k: !! x\n').message, at('did not find expected tag URI', 1, 6));
    assert.equal(fails('%TAG !e! tag:x%21\n---\nk: !e! x\n').message, at('did not find expected tag URI', 3, 7));
  });
});
