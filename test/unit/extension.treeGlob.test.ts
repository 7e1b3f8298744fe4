import { strict as assert } from 'node:assert';
import { treeGlob } from '../../src/extension/treeGlob';
import { vscodeGlobMatches } from './helpers/vscodeGlob';

/**
 * A watched tree's pattern as VS Code matches it (helpers/vscodeGlob.ts, a port of glob.ts):
 * every path below the base, a name with a line break too, which VS Code's `^.*$` for a
 * pattern of only `**` never matches.
 */
describe('treeGlob: every path of a watched tree, as VS Code matches it', () => {
  const paths = ['', 'a', 'a/b/c', '.hidden/x', 'nl\nname', 'd/cr\rname', 'ls\u2028name/x', 'ps\u2029name'];

  for (const pattern of ['**', '**/**'])
    it(`matches every path for ${JSON.stringify(pattern)}, where the pattern as given misses line breaks`, () => {
      for (const p of paths) assert.ok(vscodeGlobMatches(treeGlob(pattern), p), JSON.stringify(p));
      assert.equal(vscodeGlobMatches(pattern, 'nl\nname'), false, "VS Code's own reading, which treeGlob avoids");
    });

  it('leaves any other pattern as it is', () => {
    for (const pattern of ['*', 'SKILL.md', '{.codex,.agents}/skills/**', 'plugins/**', '**/x'])
      assert.equal(treeGlob(pattern), pattern);
  });
});
