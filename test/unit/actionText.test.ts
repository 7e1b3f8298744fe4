import { strict as assert } from 'node:assert';
import { displayText } from '../../src/core/text/displayText';

/**
 * The Action's script marks what a repository wrote with its own copy of displayText's set
 * (scripts/actionText.mjs runs on a bare runner without the package's sources): the two
 * must mark the same characters, the same way, or an annotation shows what the CLI hides.
 */
describe('the Action marks exactly what the CLI marks (scripts/actionText.mjs)', () => {
  it('agrees with displayText on every code point', async () => {
    const { visible } = await import('../../scripts/actionText.mjs');
    const differ: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const ch = String.fromCodePoint(cp);
      if (visible(ch) !== displayText(ch)) differ.push(cp.toString(16));
    }
    assert.deepEqual(differ.slice(0, 20), [], `${differ.length} code points differ`);
  });

  it('marks a name as the CLI does', async () => {
    const { visible } = await import('../../scripts/actionText.mjs');
    assert.equal(visible('a\u001b[2J\u202eb\u{e0041}\ud800.json'), 'a\\u{1b}[2J\\u{202e}b\\u{e0041}\\u{d800}.json');
  });
});
