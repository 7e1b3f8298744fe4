import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { skillgate, until } from './api';
import { TrustStore } from '../../../src/core/trust/trustStore';
import { revoke } from '../../../src/core/trust/switches';
import { fileUri } from '../../../src/extension/documents/fileUri';

/** The report's text without Markdown escapes (bundle text and codes are escaped in it). */
const plain = (d: vscode.TextDocument) => d.getText().replace(/\\(.)/g, '$1');
const reports = () => vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'skillgate');

describe('Explain Decision and Doctor (in the extension host)', () => {
  it('open as read-only reports, never as unsaved Untitled buffers, and Explain follows the snapshot', async () => {
    const api = await skillgate();
    const stateDir = process.env.SKILLGATE_STATE_DIR;
    assert.ok(stateDir);
    const good = api.snapshot()?.items.find((i) => i.name === 'good' && i.parent === null);
    assert.ok(good);
    // The lifecycle suite left `good` trusted, then changed on disk.
    assert.equal(good.trust, 'content-changed');

    await vscode.commands.executeCommand('skillgate.explain', good.id);
    const explain = await until('the explain report to open', () =>
      reports().find((d) => d.uri.path.startsWith('/explain/')),
    );
    assert.equal(explain.languageId, 'markdown');
    assert.equal(explain.isDirty, false);
    assert.equal(explain.uri.path, '/explain/Explain good.md', 'the tab title is a fixed, safe name');
    assert.match(plain(explain), /content_changed/);
    assert.deepEqual(
      vscode.workspace.textDocuments.filter((d) => d.isUntitled).map((d) => d.uri.toString()),
      [],
      'no Untitled buffer is left behind',
    );

    // Revoked from another process: the open report re-renders from the new snapshot.
    assert.ok((await revoke(good, { store: new TrustStore(stateDir) })).ok);
    await until(
      'the report to show the new decision',
      () => /not_reviewed/.test(plain(explain)) && !/content_changed/.test(plain(explain)),
      8000,
    );
    assert.equal(explain.isDirty, false);

    await vscode.commands.executeCommand('skillgate.doctor');
    const doctor = await until('the doctor report to open', () =>
      reports().find((d) => d.uri.path.startsWith('/doctor/')),
    );
    assert.match(doctor.getText(), /^Trust store: /);
    assert.equal(doctor.isDirty, false);
    assert.deepEqual(
      vscode.workspace.textDocuments.filter((d) => d.isUntitled).map((d) => d.uri.toString()),
      [],
    );
  });
});

describe('commands and the log (in the extension host)', () => {
  it('registers every command package.json contributes', async () => {
    await skillgate();
    const manifest = vscode.extensions.getExtension('skillgate.skillgate')?.packageJSON as {
      contributes: { commands: { command: string }[] };
    };
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.deepEqual(
      manifest.contributes.commands.map((c) => c.command).filter((id) => !registered.has(id)),
      [],
    );
  });

  it('Show Log opens the Skillgate channel, which logs the index runs', async () => {
    await skillgate();
    await vscode.commands.executeCommand('skillgate.showLog');
    const line = /full index: \d+ item\(s\), \d+ diagnostic\(s\) in \d+ ms/;
    // The Output panel shows the channel as a document of its own (`output:<extension id>.<channel name>`).
    const log = await until('the Skillgate channel in the Output panel', () =>
      vscode.workspace.textDocuments.find((d) => d.uri.toString() === 'output:skillgate.skillgate.Skillgate'),
    );
    await until('an index run in the log', () => line.test(log.getText()));
  });
});

describe('a file whose name is not UTF-8 (in the extension host)', () => {
  it('opens as a read-only note, never as the file its U+FFFD spelling names', async () => {
    await skillgate();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillgate-raw-name-'));
    const other = path.join(dir, 'a\ufffd.md');
    fs.writeFileSync(other, 'the bytes of the U+FFFD file\n');
    const uri = fileUri(path.join(dir, 'a\udcff.md'));
    assert.equal(uri.scheme, 'skillgate');
    const note = await vscode.workspace.openTextDocument(uri);
    assert.match(note.getText(), /not UTF-8/);
    assert.ok(note.getText().includes('a\\u{dcff}.md'), note.getText());
    assert.doesNotMatch(note.getText(), /the bytes of the U\+FFFD file/);
    assert.equal(note.isDirty, false);
    assert.equal(fileUri(other).fsPath, other, 'a name the editor can spell is the file itself');
  });
});
