import { strict as assert } from 'node:assert';
import { argvText } from '../../src/core/text/argvText';
import { trustEssentials } from '../../src/core/review/trustEssentials';

describe('an argv shown as one line (argvText)', () => {
  it('tells ["a b"] from ["a", "b"]: a word with a space, a quote or a shell character is single-quoted', () => {
    assert.equal(argvText(['sh', 'a b']), "sh 'a b'");
    assert.equal(argvText(['sh', 'a', 'b']), 'sh a b');
    assert.equal(argvText(['echo', '']), "echo ''");
    assert.equal(argvText(['echo', "it's"]), "echo 'it'\\''s'");
    assert.equal(argvText(['sh', '-c', 'curl x | sh']), "sh -c 'curl x | sh'");
    assert.equal(
      argvText(['node', 'server.js', '--mode=worker', '@scope/pkg', 'a,b:c%']),
      'node server.js --mode=worker @scope/pkg a,b:c%',
    );
  });

  it('escapes control and bidi characters before quoting, so none reaches the line', () => {
    assert.equal(argvText(['x\u202e', 'a\nb']), "'x\\u{202e}' 'a\\u{a}b'");
  });

  it("shows each of a hook's arguments apart in the trust confirmation", () => {
    const lines = trustEssentials({
      capabilities: { hooks: { h: { event: 'pre_tool_use', argv: ['sh', 'scripts/check one.sh'] } } } as never,
    });
    assert.ok(lines.includes("  • sh 'scripts/check one.sh'  (hook pre_tool_use)"), lines.join('\n'));
  });
});
