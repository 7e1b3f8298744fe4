import { strict as assert } from 'node:assert';
import { literalGlob } from '../../src/extension/literalGlob';
import { vscodeGlobMatches } from './helpers/vscodeGlob';

/**
 * A file watched by its own name: VS Code's glob (helpers/vscodeGlob.ts, a port of
 * glob.ts) matches the pattern against that name and no other.
 */
describe('literalGlob: a name as VS Code matches it, literally', () => {
  const names = [
    'hook.sh',
    'a[1].sh',
    '[[',
    ']]',
    ']',
    '[]',
    'x{y}.md',
    '{a,b}',
    '}',
    '*',
    '**',
    '?',
    '?.sh',
    '[!a]',
    '[^a]',
    '[a-c]',
    '!x',
    '^x$',
    'a,b',
    'a-b',
    'a\\b',
    '(x)+|.',
    ' lead',
    'trail ',
    '\tt\n',
    '\u00a0nbsp\u3000',
    '\ufeffbom',
    'é😀.md',
  ];

  for (const name of names) {
    it(`matches ${JSON.stringify(name)} and nothing else it could be read as`, () => {
      const glob = literalGlob(name);
      assert.ok(vscodeGlobMatches(glob, name), `${JSON.stringify(glob)} matches ${JSON.stringify(name)}`);
      for (const other of [...names, 'a1.sh', 'xy.md', 'a', 'b', 'lead', 'trail', 'x', '']) {
        if (other !== name)
          assert.ok(!vscodeGlobMatches(glob, other), `${JSON.stringify(glob)} does not match ${JSON.stringify(other)}`);
      }
      // Never a recursive watch: VS Code watches recursively a pattern with `/` or `**`.
      assert.ok(!glob.includes('/') && !glob.includes('**'), glob);
    });
  }

  it('leaves a plain name as it is', () => {
    assert.equal(literalGlob('pre-commit_1.sh'), 'pre-commit_1.sh');
  });
});
