import { strict as assert } from 'node:assert';
import { wellFormed } from '../../src/core/fs/rawNames';
import { explainItemId, explainQuery } from '../../src/extension/documents/explainDocument';
import { UNOPENABLE_PREFIX, unopenableNote, unopenableText } from '../../src/extension/documents/unopenableFile';
import { HOSTILE, assertDisplaySafe } from './helpers/displaySafe';

/**
 * A name that is not UTF-8 is spelled with lone surrogates (core/fs/rawNames.ts); its
 * U+FFFD spelling is a name another file can have. What the editor opens for one must
 * never be the other (README "Names are bytes").
 */
describe('the editor never shows one non-UTF-8 name as its U+FFFD spelling', () => {
  const raw = 'rivumi:19fabd1f239c:.rivumi/skills/a\udcff.md';
  const replaced = 'rivumi:19fabd1f239c:.rivumi/skills/a\ufffd.md';

  it('an Explain document names its item exactly, a lone surrogate too', () => {
    assert.equal(explainItemId(explainQuery(raw)), raw);
    assert.equal(explainItemId(explainQuery(replaced)), replaced);
    assert.notEqual(explainQuery(raw), explainQuery(replaced));
    // What a URI carries: well-formed text only.
    assert.equal(wellFormed(explainQuery(raw)), explainQuery(raw));
  });

  it('reads an id in any text, and the plain form an Explain tab restored from before kept', () => {
    const odd = 'workspace/x/"quoted"&a=b#c%41 ü \u202e';
    assert.equal(explainItemId(explainQuery(odd)), odd);
    assert.equal(explainItemId('item=rivumi%3Aabc%3A.rivumi%2Fskills%2Fr.md'), 'rivumi:abc:.rivumi/skills/r.md');
    assert.equal(explainItemId(''), '');
  });

  it('reads a plain id that ends with a quote as it is, and a quoted id that is not JSON as no item', () => {
    assert.equal(explainItemId(new URLSearchParams({ item: 'skills/say "hi"' }).toString()), 'skills/say "hi"');
    assert.equal(explainItemId(new URLSearchParams({ item: '"skills/r.md' }).toString()), '');
  });
});

describe('a file whose name is not UTF-8 opens as a note, never as another file', () => {
  const raw = '/ws/.rivumi/skills/a\udcff.md';
  const replaced = '/ws/.rivumi/skills/a\ufffd.md';

  it('a name the editor can spell is the file itself', () => {
    assert.equal(unopenableNote(replaced), undefined);
    assert.equal(unopenableNote('/ws/a#b?c%41 \u202e\n.md'), undefined);
  });

  it('a name that is not UTF-8 gets a note whose path shows the byte and whose query names the path exactly', () => {
    const note = unopenableNote(raw);
    assert.ok(note);
    assert.equal(note.path, '/unopenable/ws/.rivumi/skills/a\\u{dcff}.md');
    assert.equal(UNOPENABLE_PREFIX, '/unopenable/');
    assert.equal(wellFormed(note.path + note.query), note.path + note.query, 'a URI carries well-formed text only');
    assert.equal(JSON.parse(note.query), raw);
    // Two names that differ only in bytes that are not UTF-8 are two notes.
    assert.notDeepEqual(unopenableNote('/ws/a\udcfe.md'), unopenableNote('/ws/a\udcff.md'));
    assert.notEqual(unopenableNote('/ws/a\udcff\u001b')?.query, unopenableNote('/ws/a\udcff\\u{1b}')?.query);
  });

  it('a note path keeps every separator but the leading ones: a Windows path, a UNC path', () => {
    assert.equal(unopenableNote('C:\\ws\\a\udcff.md')?.path, '/unopenable/C:\\ws\\a\\u{dcff}.md');
    assert.equal(unopenableNote('\\\\server\\share\\a\udcff.md')?.path, '/unopenable/server\\share\\a\\u{dcff}.md');
    assert.equal(unopenableNote('//server/share/a\udcff.md')?.path, '/unopenable/server/share/a\\u{dcff}.md');
  });

  it('the note says why no file is opened and how to read it, for the exact path only', () => {
    assert.equal(
      unopenableText(JSON.stringify('/ws/a\udcff.md')),
      [
        'The editor cannot open this file: its name is not UTF-8, and the editor names files by Unicode text.',
        'The same name with U+FFFD in place of those bytes can be another file, so no file is opened for it.',
        '',
        'Path (\\u{dcff} is the byte 0xFF): /ws/a\\u{dcff}.md',
        '',
        'Skillgate reads, hashes and reviews the file under its exact bytes; open it in a terminal to read it.',
        '',
      ].join('\n'),
    );
    // A query this file did not write (JSON, but not a path) names no path.
    for (const query of ['123', 'null', '["/ws/a"]'])
      assert.match(unopenableText(query), /Path \(\\u\{dcff\} is the byte 0xFF\): $/m, query);
  });

  it('the note says why and shows the path escaped', () => {
    const text = unopenableText(unopenableNote(`/ws/x\udcff${HOSTILE}`)?.query ?? '');
    assert.match(text, /not UTF-8/);
    assert.ok(text.includes('/ws/x\\u{dcff}\\u{1b}[1A'), text);
    assertDisplaySafe(text, 'unopenable note');
    assert.match(unopenableText('not json'), /Path \(\\u\{dcff\} is the byte 0xFF\): $/m);
  });
});
