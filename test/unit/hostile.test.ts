import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { Fixture, index, writeW, byName, messages, codes, top } from './helpers/fixture';

/**
 * Bad input never hurts: every hostile case yields diagnostics, never an exception,
 * a hang or a read outside the bundle. Cases that could hang (a FIFO behind a link)
 * would time the test out rather than pass.
 */
describe('hostile input', function () {
  this.timeout(60000);
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const mkfifo = (p: string) => execFileSync('mkfifo', [p]);

  it('reports malformed JSON, TOML and front matter with positions', () => {
    f.write('ws/.codewhale/plugins/a/plugin.json', '{"$schema": "x", "name": ');
    f.write('ws/.codewhale/plugins/b/plugin.toml', '[plugin\nname = "b"');
    writeW(f, '', 'ws/.codewhale/plugins/c');
    f.write('ws/.codewhale/plugins/c/skills/example/SKILL.md', '---\nname: [unclosed\n: : :\n');
    f.write('ws/.rivumi/hooks.json', '{"pre_tool_use": [}');
    f.write('ws/.rivumi/plugins/p.json', '{,}');
    const s = index([f.path('ws')]);
    assert.ok(s.diagnostics.length >= 5, codes(s).join());
    assert.ok(
      s.diagnostics.find((d) => d.file.endsWith('a/plugin.json'))?.message.startsWith('failed to parse plugin.json: '),
    );
    assert.equal(s.diagnostics.find((d) => d.file.endsWith('b/plugin.toml'))?.range.start.line, 0);
  });

  it('reports NUL bytes and invalid UTF-8', () => {
    f.write(
      'ws/.codewhale/plugins/a/plugin.toml',
      Buffer.from('schema_version = 1\n[plugin]\nname = "a\u0000"\nversion = "1.0.0"\n'),
    );
    f.write('ws/.codewhale/plugins/b/plugin.json', Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
    f.write('ws/.rivumi/skills/nul.md', 'body\u0000with nul');
    const s = index([f.path('ws')]);
    assert.deepEqual(
      top(s)
        .filter((i) => i.system === 'codewhale')
        .map((i) => i.decision),
      ['rejected', 'rejected'],
    );
    assert.ok(messages(s).includes('plugin.json must be valid UTF-8'));
    assert.ok(messages(s).includes('project skill body cannot be blank or contain NUL: nul.md'));
  });

  it('refuses a 50 MB manifest and a 50 MB skill by size, and hashes a 50 MB payload within the limit', () => {
    const big = Buffer.alloc(50 * 1024 * 1024, 0x61);
    f.write('ws/.codewhale/plugins/a/plugin.json', big);
    f.write('ws/.rivumi/skills/big.md', big);
    writeW(f, '', 'ws/.codewhale/plugins/c');
    f.write('ws/.codewhale/plugins/c/payload.bin', big);
    const s = index([f.path('ws')]);
    assert.ok(messages(s).includes('plugin.json exceeds the 1048576-byte review limit'));
    assert.ok(messages(s).includes('project skill exceeds 32768 bytes: big.md'));
    assert.equal(byName(s, 'example-plugin').decision, 'disabled');
  });

  it('stops at 4096 files in one bundle (10,000 present)', () => {
    const dir = writeW(f);
    for (let i = 0; i < 10000; i++) fs.writeFileSync(`${dir}/f${i}.txt`, '');
    const s = index([f.path('ws')]);
    assert.equal(byName(s, 'example-plugin').decision, 'rejected');
    assert.ok(
      messages(s).includes('plugin bundle content exceeds the plugin review limit (4096 files / 67108864 bytes)'),
    );
  });

  it('survives symlink loops and never follows a link out of a bundle, even to a FIFO', () => {
    const dir = writeW(f);
    fs.symlinkSync('loop-b', `${dir}/loop-a`);
    fs.symlinkSync('loop-a', `${dir}/loop-b`);
    mkfifo(f.path('outside-fifo'));
    f.write('ws/.rivumi/skills/.keep.md', 'x');
    fs.symlinkSync(f.path('outside-fifo'), f.path('ws/.rivumi/skills/fifo.md'));
    f.write('ws/.codewhale/plugins/d/plugin.json', '{"$schema":"s","name":"d","version":"1.0.0"}');
    fs.symlinkSync(f.path('outside-fifo'), f.path('ws/.codewhale/plugins/d/mcp.json'));
    const s = index([f.path('ws')]);
    assert.ok(messages(s).some((m) => m.startsWith('component trees may not contain symbolic link loop-a')));
    assert.ok(messages(s).includes('project skill must be a regular markdown file: fifo.md'));
    assert.ok(messages(s).includes('mcp.json must be a regular file, not a symbolic link'));
  });

  it('reports a FIFO inside a bundle as a special file without opening it', () => {
    const dir = writeW(f);
    mkfifo(`${dir}/pipe`);
    f.mkdir('ws/.rivumi');
    mkfifo(f.path('ws/.rivumi/hooks.json'));
    const s = index([f.path('ws')]);
    assert.ok(messages(s).includes('component pipe is neither a regular file nor directory'));
    assert.ok(messages(s).includes('project hook config must be a regular file'));
  });

  it('reports a directory where a file is expected', () => {
    f.mkdir('ws/.codewhale/plugins/a/plugin.toml');
    f.mkdir('ws/.rivumi/hooks.json');
    f.mkdir('ws/.rivumi/plugins/x.json');
    f.write('ws/.rivumi/skills', 'a file where a directory belongs');
    const s = index([f.path('ws')]);
    assert.ok(messages(s).includes('project hook config must be a regular file'));
    assert.ok(messages(s).includes('project plugin manifest must be a regular file: x.json'));
    assert.ok(messages(s).includes('project skills path must be a directory'));
  });

  it('survives a deeply nested bundle without overflowing the stack', () => {
    const dir = writeW(f);
    let p = dir;
    for (let i = 0; i < 300; i++) p += '/d';
    fs.mkdirSync(p, { recursive: true });
    assert.equal(byName(index([f.path('ws')]), 'example-plugin').decision, 'disabled');
  });

  it('keeps a __proto__ key an ordinary key', () => {
    f.write('ws/.rivumi/plugins/p.json', '{"name":"p","__proto__":{"polluted":true}}');
    const s = index([f.path('ws')]);
    assert.equal(({} as { polluted?: boolean }).polluted, undefined);
    assert.deepEqual(messages(s), [
      'project plugin manifest is invalid: p.json: __proto__: Extra inputs are not permitted',
    ]);
  });

  it('handles an unreadable directory as a diagnostic when not running as root', function () {
    if (process.getuid?.() === 0) {
      // root reads everything; the permission branch is still covered by the errors-as-values path.
      f.write('ws/.rivumi/skills/a.md', 'x');
      assert.doesNotThrow(() => index([f.path('ws')]));
      return;
    }
    const dir = writeW(f);
    fs.chmodSync(`${dir}/skills`, 0);
    assert.doesNotThrow(() => index([f.path('ws')]));
    fs.chmodSync(`${dir}/skills`, 0o755);
  });
});
