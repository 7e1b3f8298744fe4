import { strict as assert } from 'node:assert';
import { hookCommand, pluginManifest, pydanticDetails } from '../../src/core/systems/rivumi/schemas';

/**
 * Rivumi's schema rules that hold for every item of a list or every level of a manifest
 * (rivumi.md §4.3, §5.2, §5.3): one bad argv element or tool among good ones, an extra key
 * at each closed object, where each problem is located (the loaders point the editor at
 * that path), and the lax-number and one-message-per-field rules at their edges.
 */
type Schema = typeof hookCommand | typeof pluginManifest;
type Detail = ReturnType<typeof pydanticDetails>[number];

function details(schema: Schema, value: unknown): Detail[] {
  const r = schema.safeParse(value, { reportInput: true });
  assert.equal(r.success, false, `expected ${JSON.stringify(value)} to be refused`);
  return r.success ? [] : pydanticDetails(r.error);
}

function parsed(schema: Schema, value: unknown): unknown {
  const r = schema.safeParse(value, { reportInput: true });
  assert.equal(r.success, true, r.success ? '' : pydanticDetails(r.error)[0]?.text);
  return r.data;
}

const texts = (schema: Schema, value: unknown) => details(schema, value).map((d) => d.text);

describe('Rivumi schema rules, item by item and level by level (rivumi.md §4.3, §5.2, §5.3)', () => {
  describe('every argv element and every tool is checked, not only one', () => {
    const argv = ['command: hook command argv entries must be non-empty and NUL-free'];
    it('refuses an empty element after a good one', () =>
      assert.deepEqual(texts(hookCommand, { command: ['python', ''] }), argv));
    it('refuses a NUL in the last of three elements', () =>
      assert.deepEqual(texts(hookCommand, { command: ['python', 'hook.py', 'a\0b'] }), argv));
    const tools = ['tools: hook tools must be non-empty and NUL-free'];
    it('refuses a blank tool after a good one', () =>
      assert.deepEqual(texts(hookCommand, { command: ['a'], tools: ['read_file', ' \t'] }), tools));
    it('refuses a NUL in a second tool', () =>
      assert.deepEqual(texts(hookCommand, { command: ['a'], tools: ['read_file', 'x\0'] }), tools));
    it('accepts an empty tools list, which never matches', () =>
      assert.deepEqual(parsed(hookCommand, { command: ['a'], tools: [] }), { command: ['a'], tools: [] }));
  });

  describe('an extra key is refused at each closed object, located at the key', () => {
    const extra = 'Extra inputs are not permitted';
    const cases: [string, Schema, unknown, (string | number)[][]][] = [
      ['a hook command with env and cwd', hookCommand, { command: ['a'], env: {}, cwd: '.' }, [['env'], ['cwd']]],
      ['a manifest with version', pluginManifest, { name: 'p', version: '1' }, [['version']]],
      [
        'a skill entry with a name beside its path',
        pluginManifest,
        { name: 'p', skills: [{ path: 'a.md' }, { path: 'b.md', name: 'b' }] },
        [['skills', 1, 'name']],
      ],
      ['discovery with tags', pluginManifest, { name: 'p', discovery: { tags: [] } }, [['discovery', 'tags']]],
    ];
    for (const [name, schema, value, paths] of cases) {
      it(name, () =>
        assert.deepEqual(
          details(schema, value),
          paths.map((path) => ({ path, text: `${path.join('.')}: ${extra}`, message: extra })),
        ),
      );
    }
  });

  describe('a missing field is "Field required", located at the field', () => {
    it('a hook command without command', () =>
      assert.deepEqual(details(hookCommand, { tools: ['x'] }), [
        { path: ['command'], text: 'command: Field required', message: 'Field required' },
      ]));
    it('a second skill entry without path, its index a number', () =>
      assert.deepEqual(details(pluginManifest, { name: 'p', skills: [{ path: 'a.md' }, {}] }), [
        { path: ['skills', 1, 'path'], text: 'skills.1.path: Field required', message: 'Field required' },
      ]));
    it('a wrong value is located with its list index as a number too', () =>
      assert.deepEqual(details(hookCommand, { command: ['a', 7] }), [
        {
          path: ['command', 1],
          text: 'command.1: Input should be a valid string',
          message: 'Input should be a valid string',
        },
      ]));
  });

  describe('timeout_seconds: ≤ 30, then > 0 (pydantic-core checks le before gt), one message', () => {
    it('NaN (Python json reads it) is not ≤ 30, and says only that', () =>
      assert.deepEqual(texts(hookCommand, { command: ['a'], timeout_seconds: NaN }), [
        'timeout_seconds: Input should be less than or equal to 30',
      ]));
    for (const [t, n] of [
      ['.25', 0.25],
      ['10e-01', 1],
      ['+.5E+01', 5],
      ['25E-1', 2.5],
    ] as const) {
      it(`reads ${JSON.stringify(t)} as ${n}`, () =>
        assert.deepEqual(parsed(hookCommand, { command: ['a'], timeout_seconds: t }), {
          command: ['a'],
          timeout_seconds: n,
        }));
    }
  });

  describe('skill paths: `\\` is `/` before the markdown check too (§5.3 stage 1)', () => {
    const skill = (path: string) => ({ name: 'p', skills: [{ path }] });
    it('refuses x.md\\ (it reads as the directory x.md/)', () =>
      assert.deepEqual(texts(pluginManifest, skill('x.md\\')), [
        'skills.0.path: plugin skill path must point to markdown',
      ]));
    it('refuses x.m\\d', () =>
      assert.deepEqual(texts(pluginManifest, skill('x.m\\d')), [
        'skills.0.path: plugin skill path must point to markdown',
      ]));
    it('accepts sub\\x.md, stored as written', () =>
      assert.deepEqual(parsed(pluginManifest, skill('sub\\x.md')), skill('sub\\x.md')));
  });

  describe('discovery keywords: each must match the name rule, none twice after stripping', () => {
    const keywords = (ks: string[]) => ({ name: 'p', discovery: { keywords: ks } });
    it('accepts distinct valid keywords, case-sensitive', () =>
      assert.deepEqual(
        parsed(pluginManifest, keywords(['lint', 'Lint', 'a.b-c_d'])),
        keywords(['lint', 'Lint', 'a.b-c_d']),
      ));
    it('refuses one invalid keyword after a valid one', () =>
      assert.deepEqual(texts(pluginManifest, keywords(['lint', 'bad kw!'])), [
        'discovery.keywords: plugin discovery keyword is invalid',
      ]));
    it('refuses the same keyword twice once stripped', () =>
      assert.deepEqual(texts(pluginManifest, keywords(['lint', ' lint\u3000'])), [
        'discovery.keywords: plugin discovery keywords cannot contain duplicates',
      ]));
    it('accepts 16 distinct keywords', () => {
      const ks = Array.from({ length: 16 }, (_, i) => `k${i}`);
      assert.deepEqual(parsed(pluginManifest, keywords(ks)), keywords(ks));
    });
  });

  describe('discovery URLs: stripped, non-empty and NUL-free as well as http(s)', () => {
    const homepage = (u: string) => ({ name: 'p', discovery: { homepage: u } });
    const refused = ['discovery.homepage: plugin discovery URL must be http(s)'];
    for (const u of ['', '   ', 'https://x\0', 'https://\0x', 'HTTPS://']) {
      it(`refuses ${JSON.stringify(u)}`, () => assert.deepEqual(texts(pluginManifest, homepage(u)), refused));
    }
    it('accepts a padded URL, stored as written', () =>
      assert.deepEqual(parsed(pluginManifest, homepage(' https://x \n')), homepage(' https://x \n')));
    it('checks repository by the same rule', () =>
      assert.deepEqual(texts(pluginManifest, { name: 'p', discovery: { repository: 'ftp://x' } }), [
        'discovery.repository: plugin discovery URL must be http(s)',
      ]));
  });
});
