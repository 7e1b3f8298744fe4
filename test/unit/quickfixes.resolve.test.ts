import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { Fixture, index, writeW } from './helpers/fixture';
import { EditorModel } from './helpers/editorApply';
import { loadWithVscode, vscodeStandIn } from './helpers/vscodeStandIn';
import type { Snapshot } from '../../src/core/index/snapshot';
import type { Diagnostic, Fix } from '../../src/core/model';

type QuickFixesModule = typeof import('../../src/extension/problems/quickFixes');

/** A code action as the stand-in builds it (helpers/vscodeStandIn.ts). */
interface StandInAction {
  readonly title: string;
  isPreferred?: boolean;
  edit?: { replaced: { uri: { fsPath: string }; range: Record<string, number>; newText: string }[] };
}

/**
 * The light bulb's menu is computed when it opens; the fix is applied when the user picks
 * it, which can be much later. In between, another tool can rewrite a file the fix edits (a
 * formatter, a checkout, an agent), and an edit built at the offer would replace whatever
 * text its stale ranges name then. VS Code asks `resolveCodeAction` for the edit of an action
 * offered without one when it is applied or previewed (vscode.d.ts CodeActionProvider;
 * codeAction.ts applyCodeAction: `await item.resolve(token)` before the edit is applied), so
 * the fix's edit is built there, on the text each file it edits holds then.
 */
describe('a quick fix is checked again when it is applied', () => {
  const { QuickFixes } = loadWithVscode(() => require('../../src/extension/problems/quickFixes') as QuickFixesModule);
  const window = vscodeStandIn.api.window as unknown as Record<string, unknown>;
  const notCancelled = { isCancellationRequested: false };
  let f: Fixture;
  let warned: string[];

  beforeEach(() => {
    vscodeStandIn.reset();
    f = new Fixture();
    warned = [];
    window.showWarningMessage = async (m: string) => void warned.push(m);
    // A file no editor holds: the document VS Code opens for it, from the disk as it is then.
    vscodeStandIn.api.workspace.openTextDocument = async (uri: { fsPath?: string }) => {
      const file = String(uri.fsPath);
      return { uri: { toString: () => `file://${file}` }, getText: () => EditorModel.read(file).text };
    };
  });
  afterEach(() => {
    f.remove();
    delete window.showWarningMessage;
    vscodeStandIn.reset();
  });

  /** An editor holding `file` with `text` (its buffer, saved or not); the returned object's text can be changed. */
  const openInEditor = (file: string, text = EditorModel.read(file).text) => {
    const doc = { text, uri: { toString: () => `file://${file}`, fsPath: file }, getText: () => doc.text };
    vscodeStandIn.api.workspace.textDocuments.push(doc);
    return doc;
  };

  /** The actions the provider offers on a diagnostic of `file`, as the Problems panel shows it. */
  const actionsOn = async (s: Snapshot, d: Diagnostic): Promise<StandInAction[]> => {
    const shown = { source: 'skillgate', code: { value: d.code }, range: d.range };
    const actions = await new QuickFixes(() => s).provideCodeActions(
      { uri: { fsPath: d.file } } as never,
      d.range as never,
      { diagnostics: [shown] } as never,
    );
    return actions as unknown as StandInAction[];
  };
  const resolve = async (s: Snapshot, action: StandInAction, token = notCancelled): Promise<StandInAction> =>
    (await new QuickFixes(() => s).resolveCodeAction(action as never, token as never)) as unknown as StandInAction;

  /** What the resolved edit replaces, and the fix's own edits in the same terms. */
  const replaced = (a: StandInAction) =>
    a.edit?.replaced.map((r) => ({ file: r.uri.fsPath, ...r.range, newText: r.newText }));
  const edits = (fix: Fix) =>
    fix.edits.map((e) => ({
      file: e.file,
      startLine: e.range.start.line,
      startCharacter: e.range.start.character,
      endLine: e.range.end.line,
      endCharacter: e.range.end.character,
      newText: e.newText,
    }));

  /** The env-value fix of a bundle: it edits the file of its own diagnostic. */
  const envFix = () => {
    const dir = writeW(f, '[mcp_servers.local]\ncommand = "node"\nenv = { TOKEN = "literal-secret" }\n');
    const s = index([f.path('ws')]);
    const d = s.diagnostics.find((x) => x.code === 'codewhale.mcp.env-value');
    assert.ok(d?.fix);
    return { s, d, fix: d.fix, file: `${dir}/plugin.toml` };
  };

  /** The network_hosts fix offered on mcp.json: it edits plugin.json, a file no editor holds. */
  const hostsFix = () => {
    const dir = 'ws/.codewhale/plugins/weather';
    const manifest = f.write(
      `${dir}/plugin.json`,
      `${JSON.stringify({ $schema: 's', name: 'weather', version: '1.0.0' }, null, 2)}\n`,
    );
    const mcp = f.write(
      `${dir}/mcp.json`,
      `${JSON.stringify({ mcpServers: { weather: { url: 'https://api.weather.example/mcp' } } }, null, 2)}\n`,
    );
    const s = index([f.path('ws')]);
    const d = s.diagnostics.find(
      (x) => x.code === 'codewhale.capabilities.network-hosts-mismatch' && x.file === mcp && x.fix,
    );
    assert.ok(d?.fix);
    assert.ok(d.fix.edits.every((e) => e.file === manifest));
    return { s, d, fix: d.fix, manifest, mcp };
  };

  it('offers the fix without an edit and builds it when applied, on the text it was computed on', async () => {
    const { s, d, fix, file } = envFix();
    openInEditor(file);
    const fixAction = (await actionsOn(s, d)).find((a) => a.isPreferred);
    assert.ok(fixAction, 'the fix is offered on its text');
    assert.equal(fixAction.edit, undefined, 'no edit is carried from the offer to the click');
    const resolved = await resolve(s, fixAction);
    assert.deepEqual(replaced(resolved), edits(fix));
    assert.deepEqual(warned, []);
  });

  it('resolves to no edit, and says so once, when another tool changed the file after the offer', async () => {
    const { s, d, fix, file } = envFix();
    const doc = openInEditor(file);
    const fixAction = (await actionsOn(s, d)).find((a) => a.isPreferred);
    assert.ok(fixAction);
    // A formatter or a checkout rewrote the file between the light bulb opening and the click:
    // every range below the added line now names other text.
    const computedOn = doc.text;
    doc.text = `# a line above\n${computedOn}`;
    const resolved = await resolve(s, fixAction);
    assert.equal(resolved.edit, undefined, 'no stale edit');
    assert.equal(warned.length, 1, warned.join('\n'));
    assert.equal(
      warned[0],
      `Not applied: ${fix.title}. .codewhale/plugins/example-plugin/plugin.toml changed since this fix was computed; Skillgate re-checks it.`,
    );
    // A resolve that VS Code cancelled says nothing.
    warned.length = 0;
    assert.equal((await resolve(s, fixAction, { isCancellationRequested: true })).edit, undefined);
    assert.deepEqual(warned, []);
    // Back on the text it was computed on (an undo), the same action applies.
    doc.text = computedOn.replace(/\n/g, '\r\n');
    assert.ok((await resolve(s, fixAction)).edit, 'the same text with other line ends');
    assert.deepEqual(warned, []);
  });

  it('reads a file no editor holds again when the fix is applied: a fix that edits another file than the open one', async () => {
    const { s, d, fix, manifest, mcp } = hostsFix();
    openInEditor(mcp);
    const fixAction = (await actionsOn(s, d)).find((a) => a.isPreferred);
    assert.ok(fixAction, 'the plugin.json fix is offered on mcp.json while plugin.json holds its text');
    assert.equal(fixAction.edit, undefined);
    const text = fs.readFileSync(manifest, 'utf8');
    // Another tool rewrote plugin.json on one line: the fix's ranges name lines it no longer has.
    fs.writeFileSync(manifest, JSON.stringify(JSON.parse(text)));
    const resolved = await resolve(s, fixAction);
    assert.equal(resolved.edit, undefined, 'no stale edit to plugin.json');
    assert.deepEqual(warned, [
      `Not applied: ${fix.title}. .codewhale/plugins/weather/plugin.json changed since this fix was computed; Skillgate re-checks it.`,
    ]);
    fs.writeFileSync(manifest, text);
    warned.length = 0;
    assert.deepEqual(replaced(await resolve(s, fixAction)), edits(fix));
    assert.deepEqual(warned, []);
  });

  it('edits no file that became a symbolic link or other than a regular file after the offer, whatever text it shows', async () => {
    const { s, d, fix, file } = envFix();
    openInEditor(file);
    const fixAction = (await actionsOn(s, d)).find((a) => a.isPreferred);
    assert.ok(fixAction);
    // The file is now a link to a file outside the bundle with the very same text: the editor
    // holds the same text, and the edit would be written to the link's target.
    const text = fs.readFileSync(file, 'utf8');
    const target = f.write('elsewhere/plugin.toml', text);
    fs.rmSync(file);
    fs.symlinkSync(target, file);
    const resolved = await resolve(s, fixAction);
    assert.equal(resolved.edit, undefined, 'no edit through the link');
    assert.deepEqual(warned, [
      `Not applied: ${fix.title}. .codewhale/plugins/example-plugin/plugin.toml is a symbolic link now: Skillgate never edits a file through a link, which would change its target.`,
    ]);
    assert.equal(fs.readFileSync(target, 'utf8'), text, 'the target is as it was');
    // A directory in its place is refused too, and a cancelled resolve says nothing.
    fs.rmSync(file);
    fs.mkdirSync(file);
    warned.length = 0;
    assert.equal((await resolve(s, fixAction)).edit, undefined);
    assert.deepEqual(warned, [
      `Not applied: ${fix.title}. .codewhale/plugins/example-plugin/plugin.toml is a directory now, not a regular file.`,
    ]);
    warned.length = 0;
    assert.equal((await resolve(s, fixAction, { isCancellationRequested: true })).edit, undefined);
    assert.deepEqual(warned, []);
    // Resolved without a token: refused, and said.
    const untokened = (await new QuickFixes(() => s).resolveCodeAction(fixAction as never)) as unknown as StandInAction;
    assert.equal(untokened.edit, undefined);
    assert.equal(warned.length, 1);
    warned.length = 0;
    // A regular file with that text again: the same action applies.
    fs.rmdirSync(file);
    fs.writeFileSync(file, text);
    assert.deepEqual(replaced(await resolve(s, fixAction)), edits(fix));
    assert.deepEqual(warned, []);
  });

  /** The env-value fix's bundle directory moved into `dir` (beside `ws`) and left behind a link to where it went. */
  const bundleBehindLink = (dir: string) => {
    const bundle = f.path('ws/.codewhale/plugins/example-plugin');
    const moved = f.path(dir, 'example-plugin');
    fs.mkdirSync(f.path(dir));
    fs.renameSync(bundle, moved);
    fs.symlinkSync(moved, bundle);
    return { bundle, moved };
  };

  it('edits no file reached through a directory that became a link out of its workspace folder, whatever text it shows', async () => {
    const { s, d, fix, file } = envFix();
    openInEditor(file);
    const fixAction = (await actionsOn(s, d)).find((a) => a.isPreferred);
    assert.ok(fixAction);
    // A checkout swapped the bundle's directory for a link to a copy outside the folder: the
    // file itself is a regular file with the very same text, and the edit would be written there.
    const { bundle, moved: outside } = bundleBehindLink('elsewhere');
    const text = fs.readFileSync(file, 'utf8');
    const resolved = await resolve(s, fixAction);
    assert.equal(resolved.edit, undefined, 'no edit through the directory link');
    assert.deepEqual(warned, [
      `Not applied: ${fix.title}. .codewhale/plugins/example-plugin/plugin.toml is reached through a symbolic link out of its workspace folder (it is ${fs.realpathSync(outside)}/plugin.toml): Skillgate never edits a file outside the folder it was found in.`,
    ]);
    assert.equal(fs.readFileSync(`${outside}/plugin.toml`, 'utf8'), text, 'the outside copy is as it was');
    // A link that stays inside the folder is the folder's own file: the fix applies.
    warned.length = 0;
    fs.rmSync(bundle);
    const inside = f.path('ws/vendored/example-plugin');
    fs.mkdirSync(f.path('ws/vendored'));
    fs.renameSync(outside, inside);
    fs.symlinkSync('../../vendored/example-plugin', bundle);
    assert.deepEqual(replaced(await resolve(s, fixAction)), edits(fix));
    assert.deepEqual(warned, []);
  });

  it("edits a file in no workspace folder (a user bundle) through a linked directory: the user's own choice of links", async () => {
    const { s, d, fix, file } = envFix();
    const user = { ...s, workspaces: [] };
    openInEditor(file);
    const fixAction = (await actionsOn(user, d)).find((a) => a.isPreferred);
    assert.ok(fixAction);
    // `~/.codewhale/plugins/x -> ~/dotfiles/x`: only the file itself must be a regular file.
    bundleBehindLink('dotfiles');
    assert.deepEqual(replaced(await resolve(user, fixAction)), edits(fix));
    assert.deepEqual(warned, []);
  });

  it('edits a file of a folder opened by a path through a link, and never one the agent reaches through a link out of it', async () => {
    // The folder itself is opened through a link (a home directory's `~/src -> /data/src`).
    fs.mkdirSync(f.path('real'));
    fs.symlinkSync(f.path('real'), f.path('linked'));
    const written = '---\nname: "review"\ndescription: d\n---\nbody\n';
    f.write('real/ws/.rivumi/skills/review.md', written);
    const linkedWs = f.path('linked/ws');
    const inFolder = index([linkedWs]);
    const d = inFolder.diagnostics.find((x) => x.code === 'rivumi.skill.name');
    assert.ok(d?.fix && d.file.startsWith(linkedWs), d?.file);
    openInEditor(d.file);
    const fixAction = (await actionsOn(inFolder, d)).find((a) => a.isPreferred);
    assert.ok(fixAction);
    assert.deepEqual(replaced(await resolve(inFolder, fixAction)), edits(d.fix));
    assert.deepEqual(warned, []);
    // Rivumi follows a linked `.rivumi` (rivumi.md §2), here to a directory outside the folder:
    // the skill is the agent's to load, and Skillgate's to show, but never to edit.
    fs.renameSync(f.path('real/ws/.rivumi'), f.path('real/common-rivumi'));
    fs.symlinkSync('../common-rivumi', f.path('real/ws/.rivumi'));
    const throughLink = index([linkedWs]);
    const followed = throughLink.diagnostics.find((x) => x.code === 'rivumi.skill.name');
    assert.ok(followed?.fix, 'the agent loads the skill through the link, and the index says so');
    const offered = (await actionsOn(throughLink, followed)).find((a) => a.isPreferred);
    assert.ok(offered);
    assert.equal((await resolve(throughLink, offered)).edit, undefined);
    assert.deepEqual(warned, [
      `Not applied: ${followed.fix.title}. .rivumi/skills/review.md is reached through a symbolic link out of its workspace folder (it is ${fs.realpathSync(f.path('real/common-rivumi/skills/review.md'))}): Skillgate never edits a file outside the folder it was found in.`,
    ]);
    assert.equal(
      fs.readFileSync(f.path('real/common-rivumi/skills/review.md'), 'utf8'),
      written,
      'the common skill is as it was',
    );
  });

  it('resolves the review and the documentation actions as they are (VS Code resolves every action without an edit)', async () => {
    const { s, d, file } = envFix();
    const doc = openInEditor(file);
    const others = (await actionsOn(s, d)).filter((a) => !a.isPreferred);
    assert.ok(others.some((a) => a.title.startsWith('Show the documentation')));
    doc.text = `# a line above\n${doc.text}`;
    for (const a of others) {
      const resolved = await resolve(s, a);
      assert.equal(resolved, a);
      assert.equal(resolved.edit, undefined);
    }
    assert.deepEqual(warned, [], 'nothing said for an action that edits nothing');
  });

  it('still offers no fix that is stale when the light bulb opens', async () => {
    const { s, d, file } = envFix();
    const doc = openInEditor(file);
    doc.text = `# a line above\n${doc.text}`;
    const actions = await actionsOn(s, d);
    assert.ok(actions.length > 0, 'the provider ran');
    assert.equal(
      actions.some((a) => a.isPreferred),
      false,
    );
    assert.deepEqual(warned, []);
  });

  /**
   * What the light bulb offers on a diagnostic: only on one of Skillgate's own, for each
   * bundle once its review, for each code its documentation, and a fix only on the very
   * diagnostic it was computed with (its file, line, code and start character).
   */
  describe('what is offered on a diagnostic', () => {
    /** An action as the menu shows it: its title, the diagnostics it names and what it runs. */
    interface OfferedAction extends StandInAction {
      readonly kind?: unknown;
      readonly diagnostics?: unknown[];
      readonly command?: { command: string; title: string; arguments: unknown[] };
    }
    /** The editor's diagnostic of `d`, its code as the Problems panel sets it (`{ value, target }`). */
    const shownOf = (d: Diagnostic, at: Partial<Diagnostic['range']['start']> = {}) => ({
      source: 'skillgate',
      code: { value: d.code, target: 'doc' },
      range: { ...d.range, start: { ...d.range.start, ...at } },
    });
    const offer = (s: Snapshot | undefined, file: string, shown: unknown[]) =>
      new QuickFixes(() => s).provideCodeActions(
        { uri: { fsPath: file } } as never,
        {} as never,
        {
          diagnostics: shown,
        } as never,
      );
    const offered = async (s: Snapshot | undefined, file: string, shown: unknown[]) =>
      (await offer(s, file, shown)) as unknown as OfferedAction[];
    const titles = (actions: OfferedAction[]) => actions.map((a) => a.title);
    /** The snapshot with `diagnostics` in place of its own. */
    const withDiagnostics = (s: Snapshot, diagnostics: Diagnostic[]): Snapshot => ({ ...s, diagnostics });

    it('is a quick fix', () => {
      assert.deepEqual(QuickFixes.kinds, [vscodeStandIn.api.CodeActionKind.QuickFix]);
    });

    it("offers nothing before any snapshot, nor on another tool's diagnostic at the same place", async () => {
      const { s, d, file } = envFix();
      openInEditor(file);
      assert.deepEqual(await offered(undefined, file, [shownOf(d)]), []);
      assert.deepEqual(await offered(s, file, [{ ...shownOf(d), source: 'other-linter' }]), []);
    });

    it("offers on a bundle's diagnostic its review, its documentation and its fix, each naming that diagnostic", async () => {
      const { s, d, fix, file } = envFix();
      openInEditor(file);
      const bundle = s.items.find((i) => i.id === d.itemId);
      assert.ok(bundle && bundle.trust !== null);
      // The code as the Problems panel sets it, and as a plain value.
      for (const shown of [shownOf(d), { ...shownOf(d), code: d.code }]) {
        const actions = await offered(s, file, [shown]);
        assert.deepEqual(
          actions.map((a) => [a.title, a.kind, a.diagnostics, a.command, a.isPreferred]),
          [
            [
              'Review example-plugin in Skillgate',
              vscodeStandIn.api.CodeActionKind.QuickFix,
              [shown],
              { command: 'skillgate.review', title: 'Review Bundle', arguments: [bundle.id] },
              undefined,
            ],
            [
              'Show the documentation for codewhale.mcp.env-value',
              vscodeStandIn.api.CodeActionKind.QuickFix,
              [shown],
              {
                command: 'skillgate.showDiagnosticDocumentation',
                title: 'Show the documentation',
                arguments: ['codewhale.mcp.env-value'],
              },
              undefined,
            ],
            [fix.title, vscodeStandIn.api.CodeActionKind.QuickFix, [shown], undefined, true],
          ],
        );
      }
    });

    it("shows the bundle's name and the fix's title escaped, in the menu and in the refusal", async () => {
      const { s, d, fix, file } = envFix();
      const doc = openInEditor(file);
      const hostile = withDiagnostics(
        { ...s, items: s.items.map((i) => (i.id === d.itemId ? { ...i, name: 'evil\x1b[2K' } : i)) },
        [{ ...d, fix: { ...fix, title: 'Fix it\u202e' } }],
      );
      const actions = await offered(hostile, file, [shownOf(d)]);
      assert.deepEqual(titles(actions), [
        'Review evil\\u{1b}[2K in Skillgate',
        'Show the documentation for codewhale.mcp.env-value',
        'Fix it\\u{202e}',
      ]);
      doc.text = `# a line above\n${doc.text}`;
      await new QuickFixes(() => hostile).resolveCodeAction(actions[2] as never, notCancelled as never);
      assert.ok(warned[0]?.startsWith('Not applied: Fix it\\u{202e}. '), warned[0]);
    });

    it('offers a bundle its review once, however many of its diagnostics are selected', async () => {
      const { s, d, fix, file } = envFix();
      openInEditor(file);
      const actions = await offered(s, file, [shownOf(d), shownOf(d)]);
      assert.deepEqual(titles(actions), [
        'Review example-plugin in Skillgate',
        'Show the documentation for codewhale.mcp.env-value',
        fix.title,
        'Show the documentation for codewhale.mcp.env-value',
        fix.title,
      ]);
    });

    it('offers no review on the diagnostic of a part of a bundle, nor on one no item owns', async () => {
      const { s, d, file } = envFix();
      openInEditor(file);
      const part = s.items.find((i) => i.kind === 'mcp-server');
      assert.ok(part && part.trust === null);
      for (const itemId of [part.id, null]) {
        const actions = await offered(withDiagnostics(s, [{ ...d, itemId, fix: undefined }]), file, [shownOf(d)]);
        assert.deepEqual(titles(actions), ['Show the documentation for codewhale.mcp.env-value'], String(itemId));
      }
    });

    it('offers no documentation for a diagnostic without a code, and documents a numeric one', async () => {
      const { s, d, file } = envFix();
      openInEditor(file);
      assert.deepEqual(await offered(s, file, [{ ...shownOf(d), code: undefined }]), []);
      assert.deepEqual(titles(await offered(s, file, [{ ...shownOf(d), code: 7 }])), ['Show the documentation for 7']);
    });

    it('offers a fix only on the diagnostic it was computed with: its file, its line and its start character', async () => {
      const { s, d, fix, file } = envFix();
      openInEditor(file);
      const docsOnly = ['Show the documentation for codewhale.mcp.env-value'];
      // The same code and place without a fix, listed before and after the one with it.
      const sameWithoutFix = { ...d, fix: undefined };
      const around = withDiagnostics(s, [sameWithoutFix, d, sameWithoutFix]);
      assert.ok((await offered(around, file, [shownOf(d)])).some((a) => a.title === fix.title));
      // The same code further along the line: the fix is not its own.
      const further = { ...d, fix: undefined, range: { ...d.range, start: { ...d.range.start, character: 20 } } };
      const beside = withDiagnostics(s, [d, further]);
      assert.deepEqual(titles(await offered(beside, file, [shownOf(further)])), [
        'Review example-plugin in Skillgate',
        ...docsOnly,
      ]);
      // The same code on another line, where the snapshot has none (an editor ahead of the index).
      assert.deepEqual(titles(await offered(s, file, [shownOf(d, { line: d.range.start.line + 1 })])), docsOnly);
      // The same line and code in another file.
      const other = f.write('other/plugin.toml', EditorModel.read(file).text);
      openInEditor(other);
      assert.deepEqual(titles(await offered(s, other, [shownOf(d)])), docsOnly);
    });

    it('offers the menu at once, not as a promise, when every file a fix edits is open', async () => {
      const { s, d, fix, file } = envFix();
      openInEditor(file);
      const actions = offer(s, file, [shownOf(d)]);
      assert.ok(Array.isArray(actions), 'no wait for a document');
      assert.ok((actions as unknown as OfferedAction[]).some((a) => a.title === fix.title));
    });

    it('offers no fix whose edits a snapshot of another version did not record', async () => {
      const { s, d, fix, file } = envFix();
      openInEditor(file);
      const other = withDiagnostics(s, [{ ...d, fix: { title: fix.title } as Fix }]);
      assert.equal(
        (await offered(other, file, [shownOf(d)])).some((a) => a.title === fix.title),
        false,
      );
    });

    it('says why a stale fix is not applied when VS Code resolves it without a token', async () => {
      const { s, d, fix, file } = envFix();
      const doc = openInEditor(file);
      const fixAction = (await actionsOn(s, d)).find((a) => a.isPreferred);
      assert.ok(fixAction);
      doc.text = `# a line above\n${doc.text}`;
      const resolved = (await new QuickFixes(() => s).resolveCodeAction(
        fixAction as never,
      )) as unknown as StandInAction;
      assert.equal(resolved.edit, undefined);
      assert.deepEqual(warned, [
        `Not applied: ${fix.title}. .codewhale/plugins/example-plugin/plugin.toml changed since this fix was computed; Skillgate re-checks it.`,
      ]);
    });
  });
});
