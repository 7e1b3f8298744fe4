import { strict as assert } from 'node:assert';
import { hookCommand, pluginManifest, pydanticDetails } from '../../src/core/systems/rivumi/schemas';
import { REPORT_INPUT } from '../../src/core/documents/parseContext';

/**
 * Rivumi's pydantic models, rule by rule (rivumi.md §4.3, §5.2): each limit at its
 * boundary and one past it, each refusal with the words pydantic or Rivumi use, and what a
 * valid value becomes (stripped names, deduplicated tools, lax numbers).
 */
type Case = [string, unknown, string[] | { ok: unknown }];

// With the input reported, as every loader validates: without it, a value of the wrong type reads as "Field required".
function outcome(schema: typeof hookCommand | typeof pluginManifest, value: unknown): string[] | { ok: unknown } {
  const r = schema.safeParse(value, REPORT_INPUT);
  return r.success ? { ok: r.data } : pydanticDetails(r.error).map((d) => d.text);
}

describe('Rivumi hook commands (hooks.json entries, pydantic HookCommand)', () => {
  const cases: Case[] = [
    ['empty argv', { command: [] }, ['command: Tuple should have at least 1 item after validation, not 0']],
    [
      '33 argv',
      {
        command: [
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
        ],
      },
      ['command: Tuple should have at most 32 items after validation, not 33'],
    ],
    [
      '32 argv',
      {
        command: [
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
          'a',
        ],
      },
      {
        ok: {
          command: [
            'a',
            'a',
            'a',
            'a',
            'a',
            'a',
            'a',
            'a',
            'a',
            'a',
            'a',
            'a',
            'a',
            'a',
            'a',
            'a',
            'a',
            'a',
            'a',
            'a',
            'a',
            'a',
            'a',
            'a',
            'a',
            'a',
            'a',
            'a',
            'a',
            'a',
            'a',
            'a',
          ],
        },
      },
    ],
    ['empty arg', { command: [''] }, ['command: hook command argv entries must be non-empty and NUL-free']],
    ['nul arg', { command: ['a\x00'] }, ['command: hook command argv entries must be non-empty and NUL-free']],
    ['string command', { command: 'x' }, ['command: Input should be a valid tuple']],
    ['number arg', { command: [1] }, ['command.0: Input should be a valid string']],
    ['timeout 0', { command: ['a'], timeout_seconds: 0 }, ['timeout_seconds: Input should be greater than 0']],
    ['timeout 30', { command: ['a'], timeout_seconds: 30 }, { ok: { command: ['a'], timeout_seconds: 30 } }],
    [
      'timeout 30.5',
      { command: ['a'], timeout_seconds: 30.5 },
      ['timeout_seconds: Input should be less than or equal to 30'],
    ],
    ['timeout "5"', { command: ['a'], timeout_seconds: ' 2.5e0 ' }, { ok: { command: ['a'], timeout_seconds: 2.5 } }],
    [
      'timeout abc',
      { command: ['a'], timeout_seconds: 'abc' },
      ['timeout_seconds: Input should be a valid number, unable to parse string as a number'],
    ],
    ['timeout null', { command: ['a'], timeout_seconds: null }, ['timeout_seconds: Input should be a valid number']],
    ['timeout true', { command: ['a'], timeout_seconds: true }, { ok: { command: ['a'], timeout_seconds: 1 } }],
    ['timeout false', { command: ['a'], timeout_seconds: false }, ['timeout_seconds: Input should be greater than 0']],
    [
      'timeout inf',
      { command: ['a'], timeout_seconds: Infinity },
      ['timeout_seconds: Input should be less than or equal to 30'],
    ],
    [
      'timeout -inf',
      { command: ['a'], timeout_seconds: -Infinity },
      ['timeout_seconds: Input should be greater than 0'],
    ],
    ['timeout .5', { command: ['a'], timeout_seconds: '.5' }, { ok: { command: ['a'], timeout_seconds: 0.5 } }],
    ['timeout 1.', { command: ['a'], timeout_seconds: '+1.' }, { ok: { command: ['a'], timeout_seconds: 1 } }],
    ['tools dedupe', { command: ['a'], tools: [' a ', 'a', 'b'] }, { ok: { command: ['a'], tools: ['a', 'b'] } }],
    ['tools blank', { command: ['a'], tools: ['  '] }, ['tools: hook tools must be non-empty and NUL-free']],
    ['tools nul', { command: ['a'], tools: ['a\x00'] }, ['tools: hook tools must be non-empty and NUL-free']],
    ['tools string', { command: ['a'], tools: 'x' }, ['tools: Input should be a valid tuple']],
    ['extra', { command: ['a'], extra: 1 }, ['extra: Extra inputs are not permitted']],
    ['not object', 5, ['Input should be a valid dictionary']],
    ['missing command', {}, ['command: Field required']],
  ];
  for (const [name, value, expected] of cases) it(name, () => assert.deepEqual(outcome(hookCommand, value), expected));
});

describe('Rivumi plugin manifests (pydantic PluginManifest)', () => {
  const cases: Case[] = [
    ['ok', { name: 'p' }, { ok: { name: 'p' } }],
    ['name empty', { name: '' }, ['name: String should have at least 1 character']],
    [
      'name 65',
      { name: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' },
      ['name: String should have at most 64 characters'],
    ],
    [
      'name 64',
      { name: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' },
      { ok: { name: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' } },
    ],
    ['name bad', { name: 'bad name!' }, ['name: invalid plugin name']],
    ['name padded', { name: ' ok ' }, { ok: { name: ' ok ' } }],
    ['name number', { name: 5 }, ['name: Input should be a valid string']],
    ['name missing', {}, ['name: Field required']],
    [
      'desc 401',
      {
        name: 'p',
        description:
          'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
      },
      ['description: String should have at most 400 characters'],
    ],
    [
      'desc 400',
      {
        name: 'p',
        description:
          'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
      },
      {
        ok: {
          name: 'p',
          description:
            'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
        },
      },
    ],
    [
      'skill path empty',
      { name: 'p', skills: [{ path: '' }] },
      ['skills.0.path: String should have at least 1 character'],
    ],
    [
      'skill path 257',
      {
        name: 'p',
        skills: [
          {
            path: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.md',
          },
        ],
      },
      ['skills.0.path: String should have at most 256 characters'],
    ],
    [
      'skill path 256',
      {
        name: 'p',
        skills: [
          {
            path: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.md',
          },
        ],
      },
      {
        ok: {
          name: 'p',
          skills: [
            {
              path: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.md',
            },
          ],
        },
      },
    ],
    [
      'skill abs',
      { name: 'p', skills: [{ path: '/x.md' }] },
      ['skills.0.path: plugin skill path must be manifest-relative'],
    ],
    [
      'skill up',
      { name: 'p', skills: [{ path: '../x.md' }] },
      ['skills.0.path: plugin skill path must be manifest-relative'],
    ],
    [
      'skill mid up',
      { name: 'p', skills: [{ path: 'a/../x.md' }] },
      ['skills.0.path: plugin skill path must be manifest-relative'],
    ],
    [
      'skill backslash up',
      { name: 'p', skills: [{ path: 'a\\..\\x.md' }] },
      ['skills.0.path: plugin skill path must be manifest-relative'],
    ],
    [
      'skill blank',
      { name: 'p', skills: [{ path: '  ' }] },
      ['skills.0.path: plugin skill path must be manifest-relative'],
    ],
    [
      'skill nul',
      { name: 'p', skills: [{ path: 'a\x00.md' }] },
      ['skills.0.path: plugin skill path must be manifest-relative'],
    ],
    [
      'skill txt',
      { name: 'p', skills: [{ path: 'x.txt' }] },
      ['skills.0.path: plugin skill path must point to markdown'],
    ],
    [
      'skill padded',
      { name: 'p', skills: [{ path: ' x.md ' }] },
      {
        ok: { name: 'p', skills: [{ path: ' x.md ' }] },
      },
    ],
    [
      '17 skills',
      {
        name: 'p',
        skills: [
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
        ],
      },
      ['skills: Tuple should have at most 16 items after validation, not 17'],
    ],
    [
      '16 skills',
      {
        name: 'p',
        skills: [
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
          { path: 'x.md' },
        ],
      },
      {
        ok: {
          name: 'p',
          skills: [
            { path: 'x.md' },
            { path: 'x.md' },
            { path: 'x.md' },
            { path: 'x.md' },
            { path: 'x.md' },
            { path: 'x.md' },
            { path: 'x.md' },
            { path: 'x.md' },
            { path: 'x.md' },
            { path: 'x.md' },
            { path: 'x.md' },
            { path: 'x.md' },
            { path: 'x.md' },
            { path: 'x.md' },
            { path: 'x.md' },
            { path: 'x.md' },
          ],
        },
      },
    ],
    ['skills obj', { name: 'p', skills: {} }, ['skills: Input should be a valid tuple']],
    ['skill item num', { name: 'p', skills: [5] }, ['skills.0: Input should be a valid dictionary']],
    ['skill extra', { name: 'p', skills: [{ path: 'x.md', x: 1 }] }, ['skills.0.x: Extra inputs are not permitted']],
    ['hooks num', { name: 'p', hooks: 5 }, ['hooks: Input should be a valid dictionary']],
    [
      'kw 17',
      {
        name: 'p',
        discovery: {
          keywords: [
            'k0',
            'k1',
            'k2',
            'k3',
            'k4',
            'k5',
            'k6',
            'k7',
            'k8',
            'k9',
            'k10',
            'k11',
            'k12',
            'k13',
            'k14',
            'k15',
            'k16',
          ],
        },
      },
      ['discovery.keywords: Tuple should have at most 16 items after validation, not 17'],
    ],
    [
      'kw bad',
      { name: 'p', discovery: { keywords: ['bad kw!'] } },
      ['discovery.keywords: plugin discovery keyword is invalid'],
    ],
    [
      'kw dup',
      { name: 'p', discovery: { keywords: ['a', ' a'] } },
      ['discovery.keywords: plugin discovery keywords cannot contain duplicates'],
    ],
    [
      'home ftp',
      { name: 'p', discovery: { homepage: 'ftp://x' } },
      ['discovery.homepage: plugin discovery URL must be http(s)'],
    ],
    [
      'home nohost',
      { name: 'p', discovery: { homepage: 'http://' } },
      ['discovery.homepage: plugin discovery URL must be http(s)'],
    ],
    [
      'home HTTPS',
      { name: 'p', discovery: { homepage: ' HTTPS://x ' } },
      { ok: { name: 'p', discovery: { homepage: ' HTTPS://x ' } } },
    ],
    [
      'home 2049',
      {
        name: 'p',
        discovery: {
          homepage:
            'https://xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
        },
      },
      ['discovery.homepage: String should have at most 2048 characters'],
    ],
    ['home null', { name: 'p', discovery: { homepage: null } }, { ok: { name: 'p', discovery: { homepage: null } } }],
    [
      'home blank',
      { name: 'p', discovery: { repository: ' ' } },
      ['discovery.repository: plugin discovery URL must be http(s)'],
    ],
    [
      'home nul',
      { name: 'p', discovery: { repository: 'https://x\x00' } },
      ['discovery.repository: plugin discovery URL must be http(s)'],
    ],
    [
      'home noscheme',
      { name: 'p', discovery: { repository: 'x.com' } },
      ['discovery.repository: plugin discovery URL must be http(s)'],
    ],
    [
      'license blank',
      { name: 'p', discovery: { license: ' ' } },
      ['discovery.license: plugin discovery text cannot be blank or contain NUL'],
    ],
    [
      'license 129',
      {
        name: 'p',
        discovery: {
          license:
            'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
        },
      },
      ['discovery.license: String should have at most 128 characters'],
    ],
    [
      'license 128',
      {
        name: 'p',
        discovery: {
          license:
            'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
        },
      },
      {
        ok: {
          name: 'p',
          discovery: {
            license:
              'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
          },
        },
      },
    ],
    [
      'author 257',
      {
        name: 'p',
        discovery: {
          author:
            'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
        },
      },
      ['discovery.author: String should have at most 256 characters'],
    ],
    [
      'author nul',
      { name: 'p', discovery: { author: 'a\x00' } },
      ['discovery.author: plugin discovery text cannot be blank or contain NUL'],
    ],
    ['disc extra', { name: 'p', discovery: { x: 1 } }, ['discovery.x: Extra inputs are not permitted']],
    ['disc num', { name: 'p', discovery: 5 }, ['discovery: Input should be a valid dictionary']],
    ['source/directory', { name: 'p', source: 5, directory: [] }, { ok: { name: 'p', source: 5, directory: [] } }],
    ['top extra', { name: 'p', zzz: 1 }, ['zzz: Extra inputs are not permitted']],
    ['not object', [], ['Input should be a valid dictionary']],
  ];
  for (const [name, value, expected] of cases)
    it(name, () => assert.deepEqual(outcome(pluginManifest, value), expected));
});
