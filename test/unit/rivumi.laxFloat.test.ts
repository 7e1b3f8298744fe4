import { strict as assert } from 'node:assert';
import { Fixture } from './helpers/fixture';
import { pydanticStrAsFloat } from '../../src/core/systems/rivumi/laxFloat';
import { hookCommand } from '../../src/core/systems/rivumi/schemas';
import { loadRivumiProject } from '../../src/core/systems/rivumi/load';

/**
 * `timeout_seconds` given as a string (rivumi.md §4.3 "lax coercion applies"), read as
 * pydantic-core's `str_as_float` reads it: Rust's float syntax on the text trimmed of
 * Unicode White_Space, else on the untrimmed text with single inner underscores removed.
 * Every expectation below is what pydantic 2.13 (pydantic-core 2.46) gives for
 * `Field(5.0, gt=0, le=30)`.
 */
describe("Rivumi: timeout_seconds strings, as pydantic's lax float reads them", () => {
  describe('the string to float step', () => {
    const read: [string, number][] = [
      ['1_0', 10],
      ['1.5_0', 1.5],
      ['1._5', 1.5],
      ['1_.5', 1.5],
      ['._5', 0.5],
      ['1_e1', 10],
      ['1e_1', 10],
      ['1e+_1', 10],
      ['+_1', 1],
      ['0_1', 1],
      ['3_0.0_1', 30.01],
      ['1_000e-2', 10],
      ['\u00852', 2],
      ['2\u0085', 2],
      ['\u00a02', 2],
      ['\u30002', 2],
      ['\u2029 2', 2],
      ['\v2\f', 2],
      ['5.', 5],
      ['.5', 0.5],
      ['+.5e1', 5],
      ['1e400', Infinity],
      ['-1e400', -Infinity],
      ['1e-400', 0],
      ['inf', Infinity],
      ['+Infinity', Infinity],
      ['-iNf', -Infinity],
      ['i_nf', Infinity],
      [' inf ', Infinity],
    ];
    for (const [text, value] of read) {
      it(`reads ${JSON.stringify(text)} as ${value}`, () => assert.equal(pydanticStrAsFloat(text), value));
    }
    for (const text of ['nan', '-NaN', 'n_an', 'nan ']) {
      it(`reads ${JSON.stringify(text)} as NaN`, () => assert.ok(Number.isNaN(pydanticStrAsFloat(text))));
    }
    const refused = [
      '\ufeff2', // U+FEFF is not White_Space
      '\u200b2',
      '\u001c2', // Python's strip() removes U+001C-U+001F; Rust's trim() does not
      '\u001f2',
      '_1',
      '1_',
      '1__0',
      '_inf',
      ' 1_0', // the underscore path does not trim
      '1_0 ',
      '\u00851_0',
      '１', // fullwidth and Arabic-Indic digits: Python's float() reads them, Rust does not
      '٣',
      '0x10',
      'infinit',
      'infinity_',
      '1e',
      '.',
      '',
      ' ',
      '2\u0000',
    ];
    for (const text of refused) {
      it(`refuses ${JSON.stringify(text)}`, () => assert.equal(pydanticStrAsFloat(text), undefined));
    }
  });

  describe('a string as long as hooks.json allows', () => {
    // `\d+\.?\d*` let the two digit runs split a run of digits every way: a 65,000-digit
    // string that is not a number took 4 s, and 17 of them (hooks.json and 16 plugins) 90 s.
    it('reads 65,000 digits, and refuses them with a letter after, within the default timeout', () => {
      const digits = '1'.repeat(65_000);
      assert.equal(pydanticStrAsFloat(digits), Infinity);
      assert.equal(pydanticStrAsFloat(`${digits}.${digits}`), Infinity);
      for (const tail of ['x', '.x', 'e', '.5e', '_x']) {
        assert.equal(pydanticStrAsFloat(digits + tail), undefined, tail);
        assert.equal(pydanticStrAsFloat(`${digits}.${digits}${tail}`), undefined, `.…${tail}`);
      }
    });
  });

  describe('the bounds after it: le is checked before gt', () => {
    const seen = (t: unknown) => {
      const r = hookCommand.safeParse({ command: ['a'], timeout_seconds: t });
      return r.success ? r.data.timeout_seconds : r.error.issues.map((i) => i.message);
    };
    const cases: [unknown, unknown][] = [
      ['1_0', 10],
      ['3_0', 30],
      ['3_0.0_1', ['Input should be less than or equal to 30']],
      ['inf', ['Input should be less than or equal to 30']],
      ['nan', ['Input should be less than or equal to 30']],
      [NaN, ['Input should be less than or equal to 30']],
      ['-inf', ['Input should be greater than 0']],
      ['1e-400', ['Input should be greater than 0']],
      ['\ufeff2', ['Input should be a valid number, unable to parse string as a number']],
    ];
    for (const [t, expected] of cases) {
      it(`${typeof t === 'string' ? JSON.stringify(t) : String(t)} gives ${JSON.stringify(expected)}`, () =>
        assert.deepEqual(seen(t), expected));
    }
  });

  describe('in hooks.json', () => {
    let f: Fixture;
    beforeEach(() => (f = new Fixture()));
    afterEach(() => f.remove());

    it('loads "1_0" as a 10-second timeout and refuses "\\ufeff2"', () => {
      f.write('ws/.rivumi/hooks.json', '{"pre_tool_use":[{"command":["true"],"timeout_seconds":"1_0"}]}');
      const ok = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        [ok.hookLoad, ok.hooksFile?.hooks.map((h) => [h.valid, h.timeoutSeconds])],
        [null, [[true, 10]]],
      );
      f.write('ws/.rivumi/hooks.json', '{"pre_tool_use":[{"command":["true"],"timeout_seconds":"\\ufeff2"}]}');
      assert.equal(
        loadRivumiProject(f.path('ws')).hookLoad?.message,
        'project hook config is invalid: pre_tool_use.0.timeout_seconds: Input should be a valid number, unable to parse string as a number',
      );
    });
  });
});
