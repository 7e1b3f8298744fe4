import { strict as assert } from 'node:assert';
import { Fixture } from './helpers/fixture';
import { loadRivumiProject } from '../../src/core/systems/rivumi/load';
import { globMatches, listingOrder } from '../../src/core/systems/rivumi/listing';

/**
 * The order Rivumi loads listed files in, which decides what its caps cut (rivumi.md §2
 * "Listing", "Order", §3.2, §5.4): Python's `sorted()` of the `Path`s `Path.glob` yields. Paths
 * compare by their case-normalized parts: the names as they are on POSIX ("case-sensitive
 * on POSIX"), lowercased on Windows (`PureWindowsPath`: `str.lower()` of each part). The
 * glob matches case-sensitively on POSIX and with `re.IGNORECASE` on Windows.
 */
describe("Rivumi listing: what Path.glob matches and the order of Python's sorted(), per platform", () => {
  it('matches the suffix case-sensitively on POSIX, and on Windows as re.IGNORECASE does (s also matches U+017F)', () => {
    const names = ['a.md', 'A.MD', '.md', 'a.md.bak', 'x.json', 'x.JSON', 'x.j\u017Fon', 'x.j\u0161on', 'x.\u217Fd'];
    const listed = (platform: NodeJS.Platform, suffix: string) => names.filter((n) => globMatches(n, suffix, platform));
    assert.deepEqual([listed('linux', '.md'), listed('linux', '.json')], [['a.md', '.md'], ['x.json']]);
    assert.deepEqual(
      [listed('win32', '.md'), listed('win32', '.json')],
      [
        ['a.md', 'A.MD', '.md'],
        ['x.json', 'x.JSON', 'x.j\u017Fon'],
      ],
    );
  });

  it('compares code points on POSIX: uppercase before lowercase, U+FF5A before U+1F600', () => {
    const names = ['a.md', 'B.md', '_.md', '.h.md', '\u{1F600}.md', '\uFF5A.md'];
    for (const platform of ['linux', 'darwin'] as const)
      assert.deepEqual([...names].sort(listingOrder(platform)), [
        '.h.md',
        'B.md',
        '_.md',
        'a.md',
        '\uFF5A.md',
        '\u{1F600}.md',
      ]);
  });

  it('compares lowercased names on Windows, then by code point', () => {
    const names = ['c.md', 'B.md', '_.md', 'a.md', 'Z.md', '\u{1F600}.md', '\uFF3A.md'];
    // U+FF3A (fullwidth Z) lowercases to U+FF5A, still below U+1F600.
    assert.deepEqual([...names].sort(listingOrder('win32')), [
      '_.md',
      'a.md',
      'B.md',
      'c.md',
      'Z.md',
      '\uFF3A.md',
      '\u{1F600}.md',
    ]);
    // Equal but for case (a case-sensitive folder): a fixed order.
    assert.deepEqual(['a.md', 'A.md'].sort(listingOrder('win32')), ['A.md', 'a.md']);
  });

  describe('the caps cut what Rivumi cuts', () => {
    let f: Fixture;
    const realPlatform = Object.getOwnPropertyDescriptor(process, 'platform') as PropertyDescriptor;
    beforeEach(() => (f = new Fixture()));
    afterEach(() => {
      Object.defineProperty(process, 'platform', realPlatform);
      f.remove();
    });
    const onWindows = () => Object.defineProperty(process, 'platform', { ...realPlatform, value: 'win32' });

    it("on Windows loads b.json as the 16th plugin and never reads Z.json (Python lowercases: 'b' < 'z')", () => {
      for (let i = 0; i < 15; i++) f.write(`ws/.rivumi/plugins/a${String(i).padStart(2, '0')}.json`, '{}');
      f.write('ws/.rivumi/plugins/b.json', '{"hooks":{"pre_tool_use":[{"command":["sh","b.sh"]}]}}');
      f.write('ws/.rivumi/plugins/Z.json', '{"hooks":{"pre_tool_use":[{"command":["sh","z.sh"]}]}}');
      onWindows();
      const p = loadRivumiProject(f.path('ws'));
      const state = (fileName: string) => p.plugins.find((x) => x.fileName === fileName)?.state;
      assert.deepEqual([state('b.json'), state('Z.json')], ['valid', 'beyond_cap']);
      assert.deepEqual(p.plugins.map((x) => x.fileName).slice(-2), ['b.json', 'Z.json']);
    });

    it('on Windows loads b.md as the 16th skill and never opens Z.md', () => {
      for (let i = 0; i < 15; i++) f.write(`ws/.rivumi/skills/a${String(i).padStart(2, '0')}.md`, 'body');
      f.write('ws/.rivumi/skills/b.md', 'body');
      f.write('ws/.rivumi/skills/Z.md', '');
      onWindows();
      const p = loadRivumiProject(f.path('ws'));
      assert.equal(p.skillLoad, null);
      assert.deepEqual(
        p.skills.slice(-2).map((s) => [s.name, s.state]),
        [
          ['b', 'valid'],
          ['Z', 'beyond_cap'],
        ],
      );
    });

    it("on Windows lists x.j\u017Fon, which Python's re.IGNORECASE matches to *.json (U+017F is a case of s)", () => {
      f.write('ws/.rivumi/plugins/x.j\u017Fon', '{"hooks":{"pre_tool_use":[{"command":["sh","x.sh"]}]}}');
      f.write('ws/.rivumi/skills/a.\u217Fd', 'body');
      onWindows();
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        p.plugins.map((x) => [x.fileName, x.state, x.hooks.length]),
        [['x.j\u017Fon', 'valid', 1]],
      );
      // U+217F (small roman numeral one thousand) looks like m but is no case of it: not listed, as in Python.
      assert.deepEqual(p.skills, []);
    });

    it('on Linux lists neither x.j\u017Fon nor x.JSON (the glob is case-sensitive)', () => {
      f.write('ws/.rivumi/plugins/x.j\u017Fon', '{}');
      f.write('ws/.rivumi/plugins/x.JSON', '{}');
      assert.deepEqual(loadRivumiProject(f.path('ws')).plugins, []);
    });

    it('on Linux keeps code-point order: Z.json is the 16th plugin and b.json is never read', () => {
      for (let i = 0; i < 15; i++) f.write(`ws/.rivumi/plugins/a${String(i).padStart(2, '0')}.json`, '{}');
      f.write('ws/.rivumi/plugins/b.json', '{}');
      f.write('ws/.rivumi/plugins/Z.json', '{}');
      const p = loadRivumiProject(f.path('ws'));
      const state = (fileName: string) => p.plugins.find((x) => x.fileName === fileName)?.state;
      assert.deepEqual([state('Z.json'), state('b.json')], ['valid', 'beyond_cap']);
    });
  });
});
