import * as assert from 'node:assert/strict';
import { MAX_EXPANDED_NODES, MAX_YAML_DEPTH } from '../../src/core/systems/eva/yamlLimits';
import { YamlFloat } from '../../src/core/systems/eva/yamlScalars';
import { YamlTagged } from '../../src/core/systems/eva/yamlValue';
import { parsedYaml as ok, yamlError as fails } from './helpers/evaYaml';

/**
 * Eva's YAML profile (eva.md §2.1) stated by counts, not by time: alias expansion is
 * bounded by the work it does (100 alias jumps per node of the document, serde_yaml's
 * repetition limit; at most MAX_EXPANDED_NODES values in all), nesting by serde_yaml's
 * recursion limit of 128, counted the same way in the bracket pre-scan, in block
 * nesting and through aliases. Keys read as serde_yaml reads them; `<<` and tags stay inert.
 */

function value(text: string): Record<string, unknown> {
  return ok(text).value as Record<string, unknown>;
}

describe('Eva YAML alias bounds, counted (eva.md §2.1)', () => {
  /**
   * Ten levels of ten aliases each (eva.md §7.2 case 54): fully expanded it would be 10^10
   * values, so a refusal proves expansion stopped long before; no clock is needed.
   */
  it('refuses the alias bomb of case 54 by its repetition limit', () => {
    const levels = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i <= 9; i++)
      levels.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    assert.match(
      fails(levels.join('\n') + '\n').message,
      // serde_yaml's RepetitionLimitExceeded carries no mark: its words name no place.
      /^failed to parse YAML: repetition limit exceeded$/,
    );
  });

  /**
   * A document of N nodes (the root, every key and every value in the text) may follow
   * 100 × N aliases. `l0: &l0 [1]` and levels `lI: &lI [*l(I-1) × 10]`: expanding level I
   * once follows J(I) = 1 + 10 · J(I-1) aliases (J(0) = 1); writing level I out follows
   * 10 · J(I-1). A list of `*l0` adds one alias and one node each, a list of scalars one
   * node each: with both, the document follows exactly `excess` aliases more than allowed.
   */
  function pastJumpBound(excess: number): string {
    const levels = 4;
    const lines = ['l0: &l0 [1]'];
    const jumpsOf = [1];
    let jumps = 0;
    let nodes = 1 + 3; // the root mapping; l0's key, its sequence and its scalar
    for (let i = 1; i <= levels; i++) {
      lines.push(
        `l${i}: &l${i} [${Array(10)
          .fill(`*l${i - 1}`)
          .join(', ')}]`,
      );
      jumps += 10 * (jumpsOf[i - 1] as number);
      jumpsOf.push(1 + 10 * (jumpsOf[i - 1] as number));
      nodes += 2 + 10;
    }
    lines.push(`all: [*l${levels}, *l${levels}]`);
    jumps += 2 * (jumpsOf[levels] as number);
    nodes += 2 + 2 + 2 + 2; // `all` (key, sequence, two aliases); the keys and sequences of the two lists below
    // jumps + a = 100 · (nodes + a + s) + excess, for a ≥ 0 aliases and s ≥ 0 scalars.
    const a = [...Array(100).keys()].find((n) => (jumps - excess - 100 * nodes - 99 * n) % 100 === 0) as number;
    const s = (jumps - excess - 100 * nodes - 99 * a) / 100;
    assert.ok(s >= 0);
    lines.push(`aliases: [${Array(a).fill('*l0').join(', ')}]`);
    lines.push(`scalars: [${Array(s).fill('0').join(', ')}]`);
    return lines.join('\n') + '\n';
  }

  it('follows exactly 100 aliases per node of the document, and refuses one more', () => {
    assert.doesNotThrow(() => ok(pastJumpBound(0)));
    assert.match(fails(pastJumpBound(1)).message, /^failed to parse YAML: repetition limit exceeded$/);
  });

  /**
   * Values written out in all: the root, each value, and for each alias the alias and the
   * values it stands for. `a: &x [1 × k]`, `b: [*x × m, 1 × r]` writes
   * 1 + (1 + k) + 1 + m · (2 + k) + r values.
   */
  function expanding(total: number): string {
    const k = 998;
    const m = 248;
    const r = total - (3 + k + m * (2 + k));
    assert.ok(r >= 0);
    return `a: &x [${Array(k).fill('1').join(',')}]\nb: [${Array(m).fill('*x').join(',')}${',1'.repeat(r)}]\n`;
  }

  it(`writes out at most ${MAX_EXPANDED_NODES} values, and refuses the next`, () => {
    const v = value(expanding(MAX_EXPANDED_NODES));
    assert.equal((v['b'] as unknown[]).length, 248 + (MAX_EXPANDED_NODES - (3 + 998 + 248 * 1000)));
    // The value past the bound is the last scalar of `b`.
    const e = fails(expanding(MAX_EXPANDED_NODES + 1));
    const r = MAX_EXPANDED_NODES + 1 - (3 + 998 + 248 * 1000);
    // serde_yaml's words for it name no place; the range does.
    assert.equal(e.message, 'failed to parse YAML: repetition limit exceeded');
    assert.deepEqual(e.range.start, { line: 1, character: 3 + (248 * 3 - 1) + 2 * r });
  });

  it('names an unknown anchor, and one defined only after its alias', () => {
    assert.equal(fails('a: *nope\n').message, 'failed to parse YAML: unknown anchor nope at line 1 column 4');
    assert.equal(fails('a: *x\nb: &x 1\n').message, 'failed to parse YAML: unknown anchor x at line 1 column 4');
  });

  it('expands an alias to the anchor defined last before it, nested ones included', () => {
    assert.deepEqual(value('a: &x [&x 1]\nb: *x\n')['b'], 1);
    assert.deepEqual(value('a: &x [1]\nb: &x [2]\nc: *x\n')['c'], [2]);
    // An anchor inside a sequence is found too.
    assert.deepEqual(value('a: [0, &x 1]\nb: *x\n')['b'], 1);
  });
});

describe('Eva YAML recursion limit, counted the same everywhere (eva.md §2.1)', () => {
  const deep = MAX_YAML_DEPTH + 1;
  /** Nesting in an explicit key: only the bracket pre-scan counts it (serde_yaml reads keys as deep as values). */
  const inKey = (open: string, close: string) => `? ${open.repeat(deep)}1${close.repeat(deep)}\n: 1\n`;

  it('counts brackets and braces in keys too, before anything is parsed', () => {
    const e = fails(inKey('[', ']'));
    assert.deepEqual(
      [e.line, e.column, e.message],
      [1, 3 + MAX_YAML_DEPTH, `failed to parse YAML: recursion limit exceeded at line 1 column ${3 + MAX_YAML_DEPTH}`],
    );
    assert.deepEqual([fails(inKey('{a: ', '}')).column], [3 + 4 * MAX_YAML_DEPTH]);
  });

  it('refuses at the first bracket past the limit, with its line and column', () => {
    const e = fails(`a: ${'[ '.repeat(deep)}${' ]'.repeat(deep)}\n`);
    assert.deepEqual([e.line, e.column], [1, 4 + 2 * MAX_YAML_DEPTH]);
    assert.match(e.message, /^failed to parse YAML: recursion limit exceeded at line 1 column \d+$/);
    const braces = fails(`a: ${'{b: '.repeat(deep)}1${'}'.repeat(deep)}\n`);
    assert.deepEqual([braces.line, braces.column], [1, 4 + 4 * MAX_YAML_DEPTH]);
  });

  it('counts closing brackets and braces, and no closer below zero', () => {
    assert.doesNotThrow(() => ok(`a: [${'[], '.repeat(MAX_YAML_DEPTH + 5)}{}]\n`));
    assert.doesNotThrow(() => ok(`a: [${'{}, '.repeat(MAX_YAML_DEPTH + 5)}[]]\n`));
    // Closers in a plain scalar before any opener do not buy depth for later brackets.
    const e = fails(`a: x${']'.repeat(5)}\n${inKey('[', ']')}`);
    assert.deepEqual([e.line, e.column], [2, 3 + MAX_YAML_DEPTH]);
  });

  it('counts brackets again after a quoted string closes and after a comment line ends', () => {
    const past = (prefix: string) => fails(`${prefix}${'['.repeat(deep)}${']'.repeat(deep)}\n`);
    assert.deepEqual(
      [past('a: ["x", ').column, past("a: ['x', ").column],
      [10 + MAX_YAML_DEPTH - 1, 10 + MAX_YAML_DEPTH - 1],
    );
    assert.deepEqual(
      [fails(`# c\n${inKey('[', ']')}`).line, fails(`# c\r${inKey('[', ']')}`).line],
      [2, 2],
      'a lone CR ends a comment line too',
    );
  });

  it('refuses block nesting past the limit, sequences as mappings, even with no value at the end', () => {
    const seqs = (n: number) => {
      let text = 'a:\n';
      for (let i = 1; i <= n; i++) text += `${'  '.repeat(i)}-\n`;
      return `${text}${'  '.repeat(n + 1)}x\n`;
    };
    assert.doesNotThrow(() => ok(seqs(MAX_YAML_DEPTH - 1)));
    assert.match(fails(seqs(MAX_YAML_DEPTH)).message, /^failed to parse YAML: recursion limit exceeded/);
    const maps = (n: number) => {
      let text = '';
      for (let i = 0; i < n; i++) text += `${'  '.repeat(i)}k:\n`;
      return text;
    };
    assert.doesNotThrow(() => ok(maps(MAX_YAML_DEPTH)));
    assert.match(fails(maps(MAX_YAML_DEPTH + 1)).message, /^failed to parse YAML: recursion limit exceeded/);
    // An explicit key with no value at all is a value too, at its depth.
    const keyOnly = `${maps(MAX_YAML_DEPTH)}${'  '.repeat(MAX_YAML_DEPTH)}? k\n`;
    assert.match(fails(keyOnly).message, /^failed to parse YAML: recursion limit exceeded/);
  });

  it('counts the levels an alias stands for, not the alias itself, toward the limit', () => {
    // serde_yaml's `jump` keeps `remaining_depth`; only a sequence or mapping spends one of its 128.
    // `b` nests k sequences around an alias to `a`, which nests j: 1 (the root) + k + j collections.
    const through = (k: number, j: number) =>
      `a: &a ${'['.repeat(j)}1${']'.repeat(j)}\nb: ${'['.repeat(k)}*a${']'.repeat(k)}\n`;
    assert.doesNotThrow(() => ok(through(63, MAX_YAML_DEPTH - 64)));
    assert.match(fails(through(63, MAX_YAML_DEPTH - 63)).message, /recursion limit exceeded/);
    // A chain of anchors, each a sequence around the alias of the one before: 71 collections deep.
    const chain = ['a0: &a0 [1]'];
    for (let i = 1; i < 70; i++) chain.push(`a${i}: &a${i} [*a${i - 1}]`);
    assert.doesNotThrow(() => ok(`${chain.join('\n')}\n`));
  });

  it('counts collections, not scalars: 128 in all are read, a 129th is refused where it starts', () => {
    // The root mapping is one of them: under `a:` 127 flow sequences read, 128 do not (serde_yaml
    // refuses the 129th collection, here the 128th bracket), though the bracket pre-scan, which
    // counts brackets alone, lets them through.
    const at = (n: number) => `a: ${'['.repeat(n)}${']'.repeat(n)}\n`;
    assert.doesNotThrow(() => ok(at(MAX_YAML_DEPTH - 1)));
    const e = fails(at(MAX_YAML_DEPTH));
    assert.deepEqual(
      [e.message, e.line, e.column],
      [`failed to parse YAML: recursion limit exceeded at line 1 column ${3 + MAX_YAML_DEPTH}`, 1, 3 + MAX_YAML_DEPTH],
    );
  });

  it("stops at the parser's own limit on nesting far past 128, in serde_yaml's words", () => {
    assert.match(
      fails(`${'- '.repeat(5_000)}x\n`).message,
      // serde_yaml places it at the 129th sequence (line 1 column 257); Skillgate, whose parser
      // overflowed first, does not know where: no place rather than a wrong one.
      /^failed to parse YAML: recursion limit exceeded$/,
    );
  });
});

describe('Eva YAML keys and values as serde_yaml reads them (eva.md §2.1)', () => {
  it('reads an alias key as the key it names, so it can supply transport: skill', () => {
    assert.deepEqual({ ...value('a: &t transport\n*t : skill\n') }, { a: 'transport', transport: 'skill' });
    const d = ok('a: &t transport\n*t : skill\n');
    assert.deepEqual([d.has(['transport']), d.literalAt(['transport'])], [true, 'skill']);
  });

  it('refuses a key given twice when one of them is an alias, as a duplicate key', () => {
    assert.equal(
      fails('a: &t transport\ntransport: stdio\n*t : skill\n').message,
      'failed to parse YAML: duplicate entry with key "transport"',
    );
  });

  it('resolves the core tags as usual; any other tag stays an inert tagged value', () => {
    const v = value(
      'a: !!int "5"\nb: !!str 5\nc: !!float 1.5\nd: !!bool true\ne: !!null null\nf: !!seq []\ng: !!map {}\n',
    );
    assert.deepEqual(
      [v['a'], v['b'], v['c'], v['d'], v['e'], v['f'], { ...(v['g'] as object) }],
      [5, '5', new YamlFloat(1.5), true, null, [], {}],
    );
    assert.ok(value('a: !int 5\n')['a'] instanceof YamlTagged);
  });

  it('keeps << an ordinary key (no merge)', () => {
    const v = value('base: &b {kind: w}\nskill:\n  <<: *b\n  id: r\n');
    assert.deepEqual(Object.keys(v['skill'] as object), ['<<', 'id']);
  });

  it('refuses a plain key longer than 1024 characters, as YAML 1.2 requires', () => {
    assert.match(fails(`${'k'.repeat(1100)}: 1\n`).message, /^failed to parse YAML: .*1024.*$/);
  });

  it("reports a parser error in the parser's words, at its line and column", () => {
    assert.equal(
      fails('a: {b: 1\n').message,
      'failed to parse YAML: Flow map in block collection must be sufficiently indented and end with a } at line 2 column 1',
    );
  });
});

describe('Eva YAML ranges at the edges', () => {
  it('gives a key without a value (flow or explicit) its key as range and value span', () => {
    const d = ok('{a, b: 1}\n');
    assert.deepEqual([d.has(['a']), d.valueSpan(['a']), d.literalAt(['a'])], [true, [1, 2], 'a']);
    assert.deepEqual(d.fieldRange(['a', 'x']), { start: { line: 0, character: 1 }, end: { line: 0, character: 2 } });
    assert.equal(d.has(['a', 'x']), false);
  });

  it('indexes a sequence only by number, and nothing else by number', () => {
    const d = ok('id: x\ncaps: [a, bb]\n');
    assert.deepEqual(
      [d.literalAt(['caps', 1]), d.has(['caps', 2]), d.has(['id', 0]), d.has([0])],
      ['bb', false, false, false],
    );
  });

  it('has no literal for a path that is absent', () => {
    const d = ok('a: {b: 1}\n');
    assert.deepEqual(
      [d.literalAt(['a', 'c']), d.literalAt(['z']), d.literalAt(['a', 'b'])],
      [undefined, undefined, '1'],
    );
  });

  it('an empty document has no ranges: the start of the file', () => {
    const d = ok('');
    assert.deepEqual(
      [d.value, d.literalAt([]), d.valueSpan([]), d.keyRange([]).start, d.fieldRange(['a']).start],
      [null, undefined, [0, 0], { line: 0, character: 0 }, { line: 0, character: 0 }],
    );
  });

  it('points a missing field below a sequence item at that item', () => {
    const d = ok('caps:\n  - {n: 1}\n');
    assert.deepEqual(d.fieldRange(['caps', 0, 'x']).start, { line: 1, character: 4 });
  });
});
