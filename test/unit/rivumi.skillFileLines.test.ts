import { strict as assert } from 'node:assert';
import { fileStem, parseRivumiSkill } from '../../src/core/systems/rivumi/skillFile';

const parse = (text: string, file = 'a.md') => parseRivumiSkill(text, file, fileStem(file));

/**
 * Rivumi's front-matter lines (rivumi.md §3.4 step 4) and where a name error points: the
 * key is the text before the first colon of a line that has one, a name is "from the front
 * matter" only when its value is not empty, and only the block's own lines are searched.
 */
describe('Rivumi skill files: front-matter keys and the line a name error points at', () => {
  it('refuses a line without a colon even when it begins with a key name', () => {
    const r = parse('---\nnames\n---\nbody');
    assert.ok(!r.ok);
    assert.deepEqual(
      [r.code, r.message, r.line],
      ['rivumi.skill.frontmatter', "unsupported project skill frontmatter in 'a.md'", 1],
    );
  });
  it('takes an empty name value as no name: the stem, not from the front matter', () => {
    const r = parse('---\nname:\n---\nbody', 'stem.md');
    assert.ok(r.ok);
    assert.deepEqual([r.name, r.nameFromFrontmatter], ['stem', false]);
    const long = parse(`---\nname:\ndescription: ${'d'.repeat(401)}\n---\nbody`, 'stem.md');
    assert.ok(!long.ok);
    assert.deepEqual(
      [long.code, long.name, long.nameFromFrontmatter],
      ['rivumi.skill.description-length', 'stem', false],
    );
  });
  it('says a name that is given is from the front matter, also with a description too long', () => {
    const r = parse('---\nname: given\n---\nbody');
    assert.ok(r.ok);
    assert.equal(r.nameFromFrontmatter, true);
    const long = parse(`---\nname: given\ndescription: ${'d'.repeat(401)}\n---\nbody`);
    assert.ok(!long.ok);
    assert.deepEqual([long.name, long.nameFromFrontmatter, long.line], ['given', true, 2]);
  });
  it('points at the name line, not at a later line of the block', () => {
    const r = parse('---\nname: bad name\ndescription: d\n---\nbody');
    assert.ok(!r.ok);
    assert.equal(r.line, 1);
  });
  it('points a repeated name key at the last one, whose value counts', () => {
    const r = parse('---\nname: ok\nname: bad name\n---\nbody');
    assert.ok(!r.ok);
    assert.deepEqual([r.message, r.line], ["invalid project skill name: 'bad name'", 2]);
  });
  it('points an invalid stem at the file start although the body or an empty name key says name:', () => {
    const r = parse('---\nname:\n---\nbody', 'bad name.md');
    assert.ok(!r.ok);
    assert.deepEqual([r.code, r.line], ['rivumi.skill.name', 0]);
  });
  it('points an invalid stem at the file start although the body has a name: line', () => {
    for (const text of ['Title\nname: x', '---\ndescription: d\n---\nname: x', '---\nno closing fence\nname: x']) {
      const r = parse(text, 'bad name.md');
      assert.ok(!r.ok, text);
      assert.deepEqual([r.code, r.line], ['rivumi.skill.name', 0], text);
    }
  });
});
