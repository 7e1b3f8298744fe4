import { strict as assert } from 'node:assert';
import { isSafeCommandName, normalizeSkillName, parseCodewhaleSkill } from '../../src/core/systems/codewhale/skillFile';

/** Codewhale's SKILL.md parser and name normalization (codewhale.md §5.2), rule by rule. */
describe('Codewhale SKILL.md parser (codewhale.md §5.2)', () => {
  const parsed = (text: string) => {
    const r = parseCodewhaleSkill(text);
    assert.ok(r.ok, r.ok ? '' : r.reason);
    return r;
  };

  describe('front matter', () => {
    it('opens after leading whitespace, and is closed by the next `---` even inside a line', () => {
      const r = parsed(' \n\t---\nname: a---\nbody');
      assert.deepEqual([r.name, r.description, r.body], ['a', '', 'body']);
    });

    it('has none in a file that starts with a byte-order mark: the heading names the skill', () => {
      const r = parsed('\uFEFF---\nname: fm\n---\n# Heading Name\n');
      assert.equal(r.name, 'Heading Name');
      assert.equal(r.body, '\uFEFF---\nname: fm\n---\n# Heading Name');
      assert.equal(r.bodyOffset, 0);
    });

    it('trims and ASCII-lowercases keys, splits at the first colon, skips blank, # and colon-less lines', () => {
      const r = parsed('---\n\n  NAME  :  n: with colon  \n# description: no\nplain line\nDescription:d\n---\n');
      assert.deepEqual([r.name, r.description], ['n: with colon', 'd']);
    });

    it('removes one pair of matching quotes only', () => {
      const value = (v: string) => parsed(`---\nname: x\ndescription: ${v}\n---\n`).description;
      assert.equal(value('"q"'), 'q');
      assert.equal(value("'q'"), 'q');
      assert.equal(value('""q""'), '"q"');
      assert.equal(value('"q\''), '"q\'');
      assert.equal(value('\'q"'), '\'q"');
      assert.equal(value('"'), '"');
      assert.equal(value("'"), "'");
      assert.equal(value('""'), '');
      assert.equal(value('q"'), 'q"');
    });

    it('refuses a name that is empty after quotes are removed, and a name key with no value', () => {
      for (const text of ['---\nname: ""\n---\n', '---\nname:\n---\n', '---\n---\n'])
        assert.deepEqual(parseCodewhaleSkill(text), { ok: false, reason: 'missing required frontmatter field: name' });
    });

    it('reads CRLF lines as lines', () => {
      const r = parsed('---\r\nname: crlf\r\ndescription: d\r\n---\r\nbody\r\n');
      assert.deepEqual([r.name, r.description, r.body], ['crlf', 'd', 'body']);
    });

    it('gives the body trimmed, and its offset in the file', () => {
      const text = '---\nname: x\n---\n\n  body  \n\n';
      const r = parsed(text);
      assert.equal(r.body, 'body');
      assert.equal(text.slice(r.bodyOffset, r.bodyOffset + 4), 'body');
      const plain = '\n\n# T\nrest\n';
      const h = parsed(plain);
      assert.equal(h.body, '# T\nrest');
      assert.equal(h.bodyOffset, 2);
    });
  });

  describe('block scalars', () => {
    const description = (block: string) => parsed(`---\nname: x\ndescription: ${block}---\n`).description;

    it('folds `>` lines with spaces and keeps an empty line as a break', () => {
      assert.equal(description('>\n  one\n  two\n\n  three\n'), 'one two\nthree');
    });
    it('keeps `|` lines as they are, relative to the first line of content', () => {
      assert.equal(description('|\n  one\n    two\n  three\n'), 'one\n  two\nthree');
    });
    it('ends the block at the first line indented no deeper than the key', () => {
      const r = parsed('---\nname: x\ndescription: |\n  one\nauthor: a\n---\n');
      assert.equal(r.description, 'one');
    });
    it('strips trailing empty lines with `-`, keeps them with `+`, and keeps one otherwise', () => {
      assert.equal(description('|-\n  a\n\n\n'), 'a');
      assert.equal(description('|+\n  a\n\n\n'), 'a\n\n');
      assert.equal(description('|\n  a\n\n\n'), 'a\n');
      assert.equal(description('>-\n  a\n  b\n\n'), 'a b');
      assert.equal(description('>+\n  a\n\n'), 'a\n');
    });
    it('gives an empty value to a block with no content', () => {
      assert.equal(parsed('---\nname: x\ndescription: >\n---\n').description, '');
    });
    it('reads a block scalar name', () => {
      assert.equal(parsed('---\nname: |\n  block-name\n---\n').name, 'block-name');
    });
    // Upstream measures indentation as `raw.len() - raw.trim_start().len()`: UTF-8 bytes, so
    // U+3000 (3 bytes) is deeper than two spaces, and cuts lines at that byte offset.
    it('measures indentation in UTF-8 bytes, as Rust `str::len` does', () => {
      assert.equal(parsed('---\n  name: |\n\u3000block-name\n---\n').name, 'block-name');
      assert.equal(description('|\n\u3000a\n    b\n'), 'a\n b');
    });
    it('refuses a block whose indentation cut falls inside a character, where upstream panics', () => {
      const r = parseCodewhaleSkill('---\nname: x\ndescription: |\n a\n\u3000b\n---\n');
      assert.ok(!r.ok && r.panics, JSON.stringify(r));
    });
    it('keeps a lone `\\r` at the end of the last line, as Rust `str::lines` does', () => {
      assert.equal(parsed('---\nname: x\ndescription: |\n  a\r---\n').description, 'a\r');
      assert.equal(description('|\n  a\r\n  b\r\n'), 'a\nb');
    });
  });

  describe('# Heading fallback', () => {
    it('takes the first line that starts with `#` and whitespace, trimmed', () => {
      assert.equal(parsed('intro\n#NotAHeading\n#   Real   Name  \n# Later\n').name, 'Real   Name');
      assert.equal(parsed('#\tTabbed\n').name, 'Tabbed');
    });
    it('lets the whitespace after `#` cross a line break, as `\\s+` does', () => {
      assert.equal(parsed('#\n\nNext Line\n').name, 'Next Line');
    });
    it('finds no name in `#` alone or a heading of whitespace only', () => {
      for (const text of ['#', '#\n', '# ', 'text # not at line start'])
        assert.deepEqual(parseCodewhaleSkill(text), {
          ok: false,
          reason: 'no frontmatter and no `# Heading` found to use as skill name',
        });
    });
  });

  describe('names', () => {
    it('normalizes runs of other characters to one `-`, lowercase, trimmed of `-`, at most 64', () => {
      assert.equal(normalizeSkillName('  Hello,  World!! '), 'hello-world');
      assert.equal(normalizeSkillName(`${'a'.repeat(63)}-b`), 'a'.repeat(63));
      assert.equal(normalizeSkillName(`${'a'.repeat(63)}!!b`), 'a'.repeat(63));
      assert.equal(normalizeSkillName('é'), 'skill');
    });
    it('normalizes a `plugin:skill` name segment by segment and keeps its colon', () => {
      assert.equal(normalizeSkillName('Foo Bar:Baz'), 'foo-bar:baz');
      assert.equal(normalizeSkillName(' a:b '), 'a:b');
      assert.equal(normalizeSkillName('!!:b'), 'skill:b');
      assert.equal(normalizeSkillName('a:b:c'), 'a-b-c');
      assert.equal(normalizeSkillName(':b'), 'b');
      assert.equal(normalizeSkillName('a:'), 'a');
    });
    it('calls a name safe when it is 1-64 of [a-z0-9-] starting with [a-z0-9]', () => {
      for (const ok of ['a', '0-x', 'a-', 'x'.repeat(64)]) assert.ok(isSafeCommandName(ok), ok);
      for (const bad of ['', '-a', 'A', 'a:b', 'a_b', 'x'.repeat(65)]) assert.ok(!isSafeCommandName(bad), bad);
    });
  });
});
