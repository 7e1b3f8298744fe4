import { strict as assert } from 'node:assert';
import { hookCommand, pluginManifest, pydanticDetails } from '../../src/core/systems/rivumi/schemas';

/**
 * The messages a user sees for each schema rule, as the loaders produce them: they
 * validate with the input reported, so a value of the wrong type says what pydantic says
 * ("Input should be a valid string"), and only an absent key is "Field required"
 * (rivumi.md §4.3, §5.2, §8: `{validation details}`). pydantic stops a field at its first
 * failing check, so each field gives one message.
 */
type Outcome = string[] | { ok: unknown };
function seen(schema: typeof hookCommand | typeof pluginManifest, value: unknown): Outcome {
  const r = schema.safeParse(value, { reportInput: true });
  return r.success ? { ok: r.data } : pydanticDetails(r.error).map((d) => d.text);
}

describe('Rivumi schema messages as the loaders report them (rivumi.md §4.3, §5.2)', () => {
  describe('a value of the wrong type, by field', () => {
    const cases: [string, typeof hookCommand | typeof pluginManifest, unknown, string[]][] = [
      ['a manifest that is not an object', pluginManifest, [], ['Input should be a valid dictionary']],
      ['a null manifest', pluginManifest, null, ['Input should be a valid dictionary']],
      ['a missing name (no default given)', pluginManifest, {}, ['name: Field required']],
      ['a number as name', pluginManifest, { name: 5 }, ['name: Input should be a valid string']],
      [
        'a number as description',
        pluginManifest,
        { name: 'p', description: 5 },
        ['description: Input should be a valid string'],
      ],
      ['an object as skills', pluginManifest, { name: 'p', skills: {} }, ['skills: Input should be a valid tuple']],
      [
        'a bare value as a skill',
        pluginManifest,
        { name: 'p', skills: [5] },
        ['skills.0: Input should be a valid dictionary'],
      ],
      [
        'a number as a skill path',
        pluginManifest,
        { name: 'p', skills: [{ path: 5 }] },
        ['skills.0.path: Input should be a valid string'],
      ],
      ['a skill without path', pluginManifest, { name: 'p', skills: [{}] }, ['skills.0.path: Field required']],
      ['a number as hooks', pluginManifest, { name: 'p', hooks: 5 }, ['hooks: Input should be a valid dictionary']],
      ['an array as hooks', pluginManifest, { name: 'p', hooks: [] }, ['hooks: Input should be a valid dictionary']],
      [
        'a number as discovery',
        pluginManifest,
        { name: 'p', discovery: 5 },
        ['discovery: Input should be a valid dictionary'],
      ],
      [
        'a string as keywords',
        pluginManifest,
        { name: 'p', discovery: { keywords: 'x' } },
        ['discovery.keywords: Input should be a valid tuple'],
      ],
      [
        'a number as a keyword',
        pluginManifest,
        { name: 'p', discovery: { keywords: [5] } },
        ['discovery.keywords.0: Input should be a valid string'],
      ],
      [
        'a number as homepage',
        pluginManifest,
        { name: 'p', discovery: { homepage: 5 } },
        ['discovery.homepage: Input should be a valid string'],
      ],
      [
        'a number as repository',
        pluginManifest,
        { name: 'p', discovery: { repository: 5 } },
        ['discovery.repository: Input should be a valid string'],
      ],
      [
        'numbers as license and author',
        pluginManifest,
        { name: 'p', discovery: { license: 5, author: 5 } },
        ['discovery.license: Input should be a valid string', 'discovery.author: Input should be a valid string'],
      ],
      ['a hook entry that is not an object', hookCommand, 5, ['Input should be a valid dictionary']],
      ['a hook entry that is an array', hookCommand, ['a'], ['Input should be a valid dictionary']],
      [
        'a string command (never split)',
        hookCommand,
        { command: 'python hook.py' },
        ['command: Input should be a valid tuple'],
      ],
      ['a number in argv', hookCommand, { command: [1] }, ['command.0: Input should be a valid string']],
      ['a string as tools', hookCommand, { command: ['a'], tools: 'x' }, ['tools: Input should be a valid tuple']],
      ['a number as a tool', hookCommand, { command: ['a'], tools: [1] }, ['tools.0: Input should be a valid string']],
      [
        'an array as timeout',
        hookCommand,
        { command: ['a'], timeout_seconds: [] },
        ['timeout_seconds: Input should be a valid number'],
      ],
    ];
    for (const [name, schema, value, expected] of cases)
      it(name, () => assert.deepEqual(seen(schema, value), expected));
  });

  describe('one message per field: the first failing check ends it', () => {
    const cases: [string, typeof hookCommand | typeof pluginManifest, unknown, string[]][] = [
      [
        'an empty name is too short, not also invalid',
        pluginManifest,
        { name: '' },
        ['name: String should have at least 1 character'],
      ],
      [
        'a 66-character invalid name is too long, not also invalid',
        pluginManifest,
        { name: 'a b'.repeat(22) },
        ['name: String should have at most 64 characters'],
      ],
      [
        'an empty skill path is too short, not also non-relative',
        pluginManifest,
        { name: 'p', skills: [{ path: '' }] },
        ['skills.0.path: String should have at least 1 character'],
      ],
      [
        'a 257-character absolute skill path is too long only',
        pluginManifest,
        { name: 'p', skills: [{ path: '/' + 'a'.repeat(256) }] },
        ['skills.0.path: String should have at most 256 characters'],
      ],
      [
        '/x.txt is not manifest-relative, and not also not markdown',
        pluginManifest,
        { name: 'p', skills: [{ path: '/x.txt' }] },
        ['skills.0.path: plugin skill path must be manifest-relative'],
      ],
      [
        'an invalid keyword listed twice is invalid, not also duplicated',
        pluginManifest,
        { name: 'p', discovery: { keywords: ['bad kw!', 'bad kw!'] } },
        ['discovery.keywords: plugin discovery keyword is invalid'],
      ],
      [
        '17 duplicated keywords are too many only',
        pluginManifest,
        { name: 'p', discovery: { keywords: Array(17).fill('k') } },
        ['discovery.keywords: Tuple should have at most 16 items after validation, not 17'],
      ],
      [
        'a 2049-character non-URL is too long only',
        pluginManifest,
        { name: 'p', discovery: { homepage: 'x'.repeat(2049) } },
        ['discovery.homepage: String should have at most 2048 characters'],
      ],
      [
        'a 129-character blank license is too long only',
        pluginManifest,
        { name: 'p', discovery: { license: ' '.repeat(129) } },
        ['discovery.license: String should have at most 128 characters'],
      ],
      [
        'a 257-character blank author is too long only',
        pluginManifest,
        { name: 'p', discovery: { author: ' '.repeat(257) } },
        ['discovery.author: String should have at most 256 characters'],
      ],
      [
        '33 argv items with an empty one are too many only',
        hookCommand,
        { command: [...Array(32).fill('a'), ''] },
        ['command: Tuple should have at most 32 items after validation, not 33'],
      ],
    ];
    for (const [name, schema, value, expected] of cases)
      it(name, () => assert.deepEqual(seen(schema, value), expected));
  });

  describe('discovery URLs: scheme http or https, case-insensitive, and a network location', () => {
    const url = (homepage: string) => seen(pluginManifest, { name: 'p', discovery: { homepage } });
    const refused = ['discovery.homepage: plugin discovery URL must be http(s)'];
    for (const u of ['https://example.com/a?b#c', 'http://x', 'Http://x:8080', 'https://user@x/']) {
      it(`accepts ${u}`, () => assert.deepEqual(url(u), { ok: { name: 'p', discovery: { homepage: u } } }));
    }
    for (const u of [
      '1https://x',
      'xhttp://x',
      'httpsx://x',
      'https:///path',
      'https://?q',
      'https://#f',
      'https:x',
      'mailto:a@b',
    ]) {
      it(`refuses ${u}`, () => assert.deepEqual(url(u), refused));
    }
  });

  describe('lax numbers for timeout_seconds: the whole string must be a number', () => {
    const timeout = (t: unknown) => seen(hookCommand, { command: ['a'], timeout_seconds: t });
    const unparsable = ['timeout_seconds: Input should be a valid number, unable to parse string as a number'];
    for (const t of ['1abc', 'abc1', '1 2', '', ' ', '1e', 'e1', '.', '+-1', '0x1']) {
      it(`refuses ${JSON.stringify(t)}`, () => assert.deepEqual(timeout(t), unparsable));
    }
    for (const [t, n] of [
      ['\t3\n', 3],
      ['1E1', 10],
      ['2.5e-1', 0.25],
      ['-0', null],
      ['10.', 10],
    ] as const) {
      it(`reads ${JSON.stringify(t)}`, () =>
        assert.deepEqual(
          timeout(t),
          n === null
            ? ['timeout_seconds: Input should be greater than 0']
            : { ok: { command: ['a'], timeout_seconds: n } },
        ));
    }
  });
});
