import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Snapshot } from '../../src/core/index/snapshot';
import type { Diagnostic } from '../../src/core/model';
import { loadWithVscode, vscodeStandIn } from './helpers/vscodeStandIn';

type ProblemsModule = typeof import('../../src/extension/problems/problems');

/** One `set` of the collection: per file, the editor diagnostics given (undefined clears the file). */
type SetCall = [string, unknown[] | undefined][];

/**
 * The Problems panel (problems.ts): one collection named after Skillgate, each diagnostic of
 * the snapshot shown at its place with its severity, its escaped message, Skillgate as its
 * source, its code linked to its documentation and its related places; a file set again only
 * when what it shows changes, cleared when it has none left.
 */
describe('the Problems panel shows the snapshot’s diagnostics', () => {
  let sets: SetCall[];
  let names: string[];
  let disposed: number;
  const { Problems } = loadWithVscode(() => require('../../src/extension/problems/problems') as ProblemsModule);
  const docs = { link: (code: string) => `doc#${code}` } as unknown as ConstructorParameters<typeof Problems>[0];

  beforeEach(() => {
    sets = [];
    names = [];
    disposed = 0;
    // Set again for each test: another test file may have put its own collection there since.
    Object.assign(vscodeStandIn.api, {
      languages: {
        createDiagnosticCollection: (name: string) => {
          names.push(name);
          return {
            // A file by its path; a note (what Skillgate opens for a link) by its scheme and path.
            set: (entries: [{ scheme: string; fsPath?: string; path?: string }, unknown[] | undefined][]) =>
              void sets.push(
                entries.map(([uri, list]) => [
                  uri.scheme === 'file' ? String(uri.fsPath) : `${uri.scheme}:${uri.path}`,
                  list,
                ]),
              ),
            dispose: () => void disposed++,
          };
        },
      },
    });
  });

  const range = (line: number, character = 0) => ({ start: { line, character }, end: { line, character: 9 } });
  const diagnostic = (file: string, line: number, more: Partial<Diagnostic> = {}): Diagnostic => ({
    file,
    range: range(line),
    severity: 'warning',
    code: 'codewhale.mcp.env-value',
    message: `line ${line}`,
    itemId: null,
    ...more,
  });
  const snapshotOf = (...diagnostics: Diagnostic[]) => ({ diagnostics }) as unknown as Snapshot;
  const editorRange = (line: number, character = 0) => ({
    startLine: line,
    startCharacter: character,
    endLine: line,
    endCharacter: 9,
  });

  it('shows each diagnostic with its severity, escaped message, source, linked code and related places', async () => {
    const problems = new Problems(docs);
    assert.deepEqual(names, ['skillgate']);
    await problems.update(
      snapshotOf(
        diagnostic('/ws/a.toml', 1, { severity: 'error', message: 'bad \x1b[2K' }),
        diagnostic('/ws/a.toml', 2, {
          severity: 'information',
          related: [{ file: '/ws/b.json', range: range(3, 4), message: 'declared here \u202e' }],
        }),
        diagnostic('/ws/a.toml', 4),
      ),
    );
    assert.deepEqual(JSON.parse(JSON.stringify(sets)), [
      [
        [
          '/ws/a.toml',
          [
            {
              range: editorRange(1),
              message: 'bad \\u{1b}[2K',
              severity: 0,
              source: 'skillgate',
              code: { value: 'codewhale.mcp.env-value', target: 'doc#codewhale.mcp.env-value' },
            },
            {
              range: editorRange(2),
              message: 'line 2',
              severity: 2,
              source: 'skillgate',
              code: { value: 'codewhale.mcp.env-value', target: 'doc#codewhale.mcp.env-value' },
              relatedInformation: [
                {
                  location: { uri: { scheme: 'file', fsPath: '/ws/b.json' }, range: editorRange(3, 4) },
                  message: 'declared here \\u{202e}',
                },
              ],
            },
            {
              range: editorRange(4),
              message: 'line 4',
              severity: 1,
              source: 'skillgate',
              code: { value: 'codewhale.mcp.env-value', target: 'doc#codewhale.mcp.env-value' },
            },
          ],
        ],
      ],
    ]);
    problems.dispose();
    assert.equal(disposed, 1, 'the collection goes with the panel');
  });

  it('sets a file again only when what it shows changes, and clears a file left without diagnostics', async () => {
    const problems = new Problems(docs);
    const a = diagnostic('/ws/a.toml', 1);
    const b = diagnostic('/ws/b.toml', 1);
    await problems.update(snapshotOf(a, b));
    assert.deepEqual(
      sets.map((s) => s.map(([file]) => file)),
      [['/ws/a.toml', '/ws/b.toml']],
    );
    sets.length = 0;
    await problems.update(snapshotOf(a, b));
    assert.deepEqual(sets, [], 'the same diagnostics are not set again');
    await problems.update(snapshotOf(a));
    assert.deepEqual(sets, [[['/ws/b.toml', undefined]]], 'b.toml has none left');
    sets.length = 0;
    await problems.update(snapshotOf(a));
    assert.deepEqual(sets, [], 'a file cleared once is not cleared again');
    problems.dispose();
  });

  describe('a file that is a symbolic link or no regular file', () => {
    let dir: string;
    beforeEach(() => {
      dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skillgate-problems-')));
      fs.writeFileSync(path.join(dir, 'secret.txt'), 'text behind the link\n');
    });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
    const note = (file: string, kind: string) => `skillgate:/not-opened/${file.slice(1)} (${kind})`;
    const files = () => sets.map((s) => s.map(([file, list]) => [file, list?.length]));

    it('sets the diagnostics of a link under the note that says so, never under the file the editor would follow', async () => {
      const link = path.join(dir, 'notes.md');
      fs.symlinkSync(path.join(dir, 'secret.txt'), link);
      const folder = path.join(dir, 'skills');
      fs.mkdirSync(folder);
      const problems = new Problems(docs);
      await problems.update(
        snapshotOf(
          diagnostic(link, 0, { related: [{ file: link, range: range(0), message: 'the link' }] }),
          diagnostic(folder, 0),
        ),
      );
      assert.deepEqual(files(), [
        [
          [note(link, 'symbolic link'), 1],
          [note(folder, 'directory'), 1],
        ],
      ]);
      const related = JSON.parse(JSON.stringify(sets[0]?.[0]?.[1]))[0].relatedInformation[0].location.uri;
      assert.equal(`${related.scheme}:${related.path}`, note(link, 'symbolic link'), 'a related place on a link too');
      problems.dispose();
    });

    it('moves a file between its note and itself when it changes kind, clearing where it was in the same change', async () => {
      const file = path.join(dir, 'notes.md');
      fs.symlinkSync(path.join(dir, 'secret.txt'), file);
      const problems = new Problems(docs);
      const d = diagnostic(file, 0);
      await problems.update(snapshotOf(d));
      sets.length = 0;
      await problems.update(snapshotOf(d));
      assert.deepEqual(sets, [], 'a link still a link is not set again');

      // The same diagnostics, and the link is now a regular file: they move to the file.
      fs.rmSync(file);
      fs.writeFileSync(file, 'a file now\n');
      await problems.update(snapshotOf(d));
      assert.deepEqual(files(), [
        [
          [note(file, 'symbolic link'), undefined],
          [file, 1],
        ],
      ]);
      sets.length = 0;
      await problems.update(snapshotOf(d));
      assert.deepEqual(sets, [], 'a regular file still a regular file is not set again');

      // A link again, with the same diagnostics: they move to the note all the same (the
      // file URI would open the link's target, and offer its quick fixes there).
      fs.rmSync(file);
      fs.symlinkSync(path.join(dir, 'secret.txt'), file);
      sets.length = 0;
      await problems.update(snapshotOf(d));
      assert.deepEqual(files(), [
        [
          [file, undefined],
          [note(file, 'symbolic link'), 1],
        ],
      ]);

      // A regular file again, with other diagnostics: they move to the file.
      fs.rmSync(file);
      fs.writeFileSync(file, 'a file again\n');
      sets.length = 0;
      await problems.update(snapshotOf(diagnostic(file, 1)));
      assert.deepEqual(files(), [
        [
          [note(file, 'symbolic link'), undefined],
          [file, 1],
        ],
      ]);

      // And a link again, with other diagnostics.
      fs.rmSync(file);
      fs.symlinkSync(path.join(dir, 'secret.txt'), file);
      sets.length = 0;
      await problems.update(snapshotOf(diagnostic(file, 2)));
      assert.deepEqual(files(), [
        [
          [file, undefined],
          [note(file, 'symbolic link'), 1],
        ],
      ]);

      // A regular file again, with no diagnostics left: the note's are cleared, nothing else set.
      sets.length = 0;
      fs.rmSync(file);
      fs.writeFileSync(file, 'a file again\n');
      await problems.update(snapshotOf());
      assert.deepEqual(files(), [[[note(file, 'symbolic link'), undefined]]]);
      sets.length = 0;
      await problems.update(snapshotOf());
      assert.deepEqual(sets, [], 'cleared once');
      problems.dispose();
    });

    it('sets a file again when a file its related places name becomes a link, its diagnostics the same', async () => {
      const file = path.join(dir, 'plugin.json');
      const other = path.join(dir, 'mcp.json');
      fs.writeFileSync(file, '{}\n');
      fs.writeFileSync(other, '{}\n');
      const problems = new Problems(docs);
      const d = diagnostic(file, 0, { related: [{ file: other, range: range(0), message: 'declared here' }] });
      const relatedUri = () => {
        const uri = JSON.parse(JSON.stringify(sets.at(-1)?.at(-1)?.[1]))[0].relatedInformation[0].location.uri;
        return uri.scheme === 'file' ? uri.fsPath : `${uri.scheme}:${uri.path}`;
      };
      await problems.update(snapshotOf(d));
      assert.equal(relatedUri(), other);
      sets.length = 0;
      await problems.update(snapshotOf(d));
      assert.deepEqual(sets, [], 'nothing changed: not set again');

      fs.rmSync(other);
      fs.symlinkSync(path.join(dir, 'secret.txt'), other);
      await problems.update(snapshotOf(d));
      assert.deepEqual(files(), [[[file, 1]]], 'the file stays where it is, set again');
      assert.equal(relatedUri(), note(other, 'symbolic link'), 'its related place now opens the note');
      problems.dispose();
    });
  });
});
