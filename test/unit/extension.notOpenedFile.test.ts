import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { NOT_OPENED_PREFIX, notOpenedNote, notOpenedText } from '../../src/extension/documents/notOpenedFile';
import { HOSTILE, assertDisplaySafe } from './helpers/displaySafe';

/**
 * What Skillgate opens in the editor is a regular file or a note: never a link's target
 * (the editor shows a link as the text of what it points to, anywhere on the machine), and
 * never a FIFO the editor would wait on.
 */
describe('a path that is no regular file opens as a note that says what it is', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillgate-not-opened-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('opens a regular file as itself, and leaves a path that is gone to the editor', async () => {
    fs.writeFileSync(path.join(dir, 'SKILL.md'), '# skill\n');
    assert.equal(await notOpenedNote(path.join(dir, 'SKILL.md')), undefined);
    assert.equal(await notOpenedNote(path.join(dir, 'gone.md')), undefined);
  });

  it('names a link and its target, and never reads through it, a link to a regular file too', async () => {
    const target = path.join(dir, 'real.md');
    fs.writeFileSync(target, 'the target');
    const link = path.join(dir, 'notes.md');
    fs.symlinkSync(target, link);
    const note = await notOpenedNote(link);
    assert.ok(note);
    assert.equal(note.path, `${NOT_OPENED_PREFIX}${link.slice(1)} (symbolic link)`);
    assert.equal(NOT_OPENED_PREFIX, '/not-opened/');
    assert.deepEqual(JSON.parse(note.query), { path: link, kind: 'symbolic link', target });
    assert.equal(
      notOpenedText(note.query),
      [
        'Skillgate did not open this path: it is a symbolic link.',
        'Skillgate never follows a link out of a bundle: the editor would show its target, which can be any file on this machine.',
        '',
        `Path: ${link}`,
        `Link target: ${target}`,
        '',
        'Its diagnostics are in the Problems panel; Explain Decision says what the agent does with it.',
        '',
      ].join('\n'),
    );
    assert.doesNotMatch(notOpenedText(note.query), /the target/);
    // A dangling link is a link all the same.
    fs.symlinkSync(path.join(dir, 'nowhere'), path.join(dir, 'dangling.md'));
    assert.match((await notOpenedNote(path.join(dir, 'dangling.md')))?.path ?? '', /dangling\.md \(symbolic link\)$/);
  });

  it('says what a directory, a FIFO and a socket are, with no link target', async () => {
    const fifo = path.join(dir, 'pipe.md');
    execFileSync('mkfifo', [fifo]);
    const socket = path.join(dir, 'sock');
    const server = net.createServer().listen(socket);
    await new Promise((r) => server.once('listening', r));
    try {
      const cases: [string, string, RegExp][] = [
        [dir, 'directory', /it is a directory, not a file\./],
        [fifo, 'FIFO', /it is a FIFO \(a named pipe\)\.\nThe editor would wait for something to write to it\./],
        [socket, 'socket', /it is a socket, not a file\./],
        ['/dev/null', 'device', /it is a device, not a file\./],
      ];
      for (const [p, kind, why] of cases) {
        const note = await notOpenedNote(p);
        assert.ok(note, p);
        assert.ok(note.path.endsWith(` (${kind})`), note.path);
        assert.deepEqual(JSON.parse(note.query), { path: p, kind });
        assert.match(notOpenedText(note.query), why);
        assert.doesNotMatch(notOpenedText(note.query), /Link target/);
      }
    } finally {
      server.close();
    }
    const note = await notOpenedNote(dir);
    assert.ok(note);
    assert.equal(
      notOpenedText(note.query),
      [
        'Skillgate did not open this path: it is a directory, not a file.',
        '',
        `Path: ${dir}`,
        '',
        'Its diagnostics are in the Problems panel; Explain Decision says what the agent does with it.',
        '',
      ].join('\n'),
    );
  });

  it("names the note's path after the path's leading slashes, and only those", async () => {
    // POSIX reads `//tmp/x` as `/tmp/x`; the note's path has one slash after its prefix.
    assert.equal((await notOpenedNote(`//${dir.slice(1)}`))?.path, `${NOT_OPENED_PREFIX}${dir.slice(1)} (directory)`);
    // A relative path (as a test or a tool may name one) keeps every slash it has.
    const relative = path.relative(process.cwd(), dir);
    assert.ok(!relative.startsWith('/') && relative.includes('/'), relative);
    assert.equal((await notOpenedNote(relative))?.path, `${NOT_OPENED_PREFIX}${relative} (directory)`);
  });

  it("escapes a hostile name and target in the note's path and text", async () => {
    const link = path.join(dir, `a${HOSTILE.replace('\udcff', '')}.md`);
    fs.symlinkSync(`/x${HOSTILE.replace('\udcff', '')}`, link);
    const note = await notOpenedNote(link);
    assert.ok(note);
    assertDisplaySafe(note.path, 'the note path', false);
    assertDisplaySafe(notOpenedText(note.query), 'the note text');
    assert.match(notOpenedText(note.query), /^Link target: \/x\\u\{1b\}\[1A/m);
  });

  it('says only that it is no regular file for a query it did not write', () => {
    const plain = 'Skillgate did not open this path: it is not a regular file.\n';
    for (const query of [
      '',
      '{',
      '123',
      'null',
      '"x"',
      '{"path":"/a"}',
      '{"path":"/a","kind":"toString"}',
      '{"path":1,"kind":"FIFO"}',
    ])
      assert.equal(notOpenedText(query), plain, query);
    // A target that is no string is left out, the rest kept.
    assert.doesNotMatch(notOpenedText('{"path":"/a","kind":"symbolic link","target":7}'), /Link target/);
  });
});
