import * as assert from 'node:assert/strict';
import { yamlError as fails } from './helpers/evaYaml';

/**
 * Texts both libyaml (serde_yaml 0.9, eva.md §2.1) and the yaml library refuse, where the
 * library states the fault in its own words or at another place: Skillgate reports libyaml's
 * words at libyaml's place. Every expected value below is libyaml's own (PyYAML 6.0.3's
 * CSafeLoader on the same texts: problem, problem_mark + 1).
 */
describe("Eva YAML: refusals in libyaml's words, at libyaml's place", () => {
  // serde_yaml's words leave out a place at line 1 column 1 (libyaml's mark 0:0).
  const at = (detail: string, line: number, column: number) =>
    `failed to parse YAML: ${detail}${line === 1 && column === 1 ? '' : ` at line ${line} column ${column}`}`;
  const refused = (text: string, detail: string, line: number, column: number) =>
    assert.equal(fails(text).message, at(detail, line, column), JSON.stringify(text));

  it('an anchor or alias with no name: after its indicator (the library: "… cannot be an empty string", at it)', () => {
    refused('a: & x', 'did not find expected alphabetic or numeric character', 1, 5);
    refused('- *', 'did not find expected alphabetic or numeric character', 1, 4);
  });

  it('a mapping begun after a key on its line: at the inner `:` or `?` (the library: "Nested mappings are not allowed in compact mappings")', () => {
    const values = 'mapping values are not allowed in this context';
    refused('a: x: y', values, 1, 5);
    refused('a: !t x: y', values, 1, 8);
    refused('- a: x: y', values, 1, 7);
    refused('a: ? x', 'mapping keys are not allowed in this context', 1, 4);
  });

  it('a block collection on the line of `---`: at its first indicator (the library: "Block collection cannot start on same line …")', () => {
    refused('--- a: b', 'mapping values are not allowed in this context', 1, 6);
    refused('--- - a', 'block sequence entries are not allowed in this context', 1, 5);
  });

  it('such a mapping inside a flow collection: at the inner `:`, the collection\'s close expected (the library: "Block collections are not allowed within flow collections")', () => {
    refused('{c: x: y}', "did not find expected ',' or '}'", 1, 6);
    refused('[a, b: c: d]', "did not find expected ',' or ']'", 1, 9);
  });

  it('a block mapping\'s key over two lines: at its `:` when first, else at its first token on a later line (the library: "Implicit keys need to be on a single line", at the key)', () => {
    refused('a\n b: 1', 'mapping values are not allowed in this context', 2, 3);
    refused('x: 1\na\n b: 2', "could not find expected ':'", 3, 3);
    refused('x: 1\n[a,\nb]: 1', "could not find expected ':'", 3, 1);
  });

  it('flow entries not separated: the separator or the close expected (the library: "Missing , or : between flow … items")', () => {
    refused('["a" b]', "did not find expected ',' or ']'", 1, 6);
    refused("['a' 'b']", "did not find expected ',' or ']'", 1, 6);
    refused('{"a" b}', "did not find expected ',' or '}'", 1, 6);
    refused('{a\n# c\n  b}', "did not find expected ',' or '}'", 3, 3);
    // A `?` where the value stands starts no node.
    refused('{a: ? z}', 'did not find expected node content', 1, 5);
  });

  it('a tag handle no %TAG names, after the faults of the tokens scanned with it (the library: "Could not resolve tag")', () => {
    refused('!e!x a', 'found undefined tag handle', 1, 1);
    refused('k: !a!b [x]', 'found undefined tag handle', 1, 4);
    refused('!e!x & a', 'did not find expected alphabetic or numeric character', 1, 7);
    refused('!e!x &b @a', 'found character that cannot start any token', 1, 9);
  });

  it('characters and scalars the scanner refuses, in its words', () => {
    const noToken = 'found character that cannot start any token';
    refused('a: %x', noToken, 1, 4);
    refused('[a, `x]', noToken, 1, 5);
    refused('[a, , b]', 'did not find expected node content', 1, 5);
    refused('{, a}', 'did not find expected node content', 1, 2);
    refused('a: "x', 'found unexpected end of stream', 1, 6);
    refused("- 'x", 'found unexpected end of stream', 1, 5);
    refused('a: |x\n b', 'did not find expected comment or line break', 1, 5);
    refused('a: >-+\n b', 'did not find expected comment or line break', 1, 6);
    refused('a: |0\n b', 'found an indentation indicator equal to 0', 1, 5);
  });

  it('a token after a complete node: what the collection around it expected (the library: "An alias node must not specify any properties", "Unexpected … at node end")', () => {
    refused('k: !t *a', 'did not find expected key', 1, 7);
    refused('k:\n- !t *a', 'did not find expected key', 2, 6);
    refused('- !t *a', "did not find expected '-' indicator", 1, 6);
    refused('[!t *a]', "did not find expected ',' or ']'", 1, 5);
    refused('{a: !t *a}', "did not find expected ',' or '}'", 1, 8);
    refused('!t *a', 'did not find expected <document start>', 1, 4);
    refused('--- |\n  x\na: 1', 'did not find expected <document start>', 3, 1);
  });
});
