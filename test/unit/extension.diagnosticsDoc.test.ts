import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Fixture } from './helpers/fixture';
import { loadWithVscode, vscodeStandIn } from './helpers/vscodeStandIn';

type DiagnosticsDocModule = typeof import('../../src/extension/problems/diagnosticsDoc');

/** A file URI as diagnosticsDoc.ts reads one: its path, and the same with a fragment. */
interface PageUri {
  readonly fsPath: string;
  readonly fragment?: string;
  with(change: { fragment: string }): PageUri;
}
const pageUri = (fsPath: string, fragment?: string): PageUri => ({
  fsPath,
  ...(fragment === undefined ? {} : { fragment }),
  with: (change) => pageUri(fsPath, change.fragment),
});

/**
 * The diagnostics page that ships in the VSIX (diagnosticsDoc.ts): a code's link in the
 * Problems panel and "Show the documentation" open it at that code's heading, the top of the
 * page for a code it does not list or when the build has no page; the page is read once.
 */
describe('the diagnostics page opens at the code’s heading', () => {
  const { DiagnosticsDoc } = loadWithVscode(
    () => require('../../src/extension/problems/diagnosticsDoc') as DiagnosticsDocModule,
  );
  const uris = vscodeStandIn.api.Uri as unknown as Record<string, unknown>;
  const window = vscodeStandIn.api.window as unknown as Record<string, unknown>;
  let f: Fixture;
  let opened: [string, unknown][];
  let revealed: [unknown, unknown][];

  beforeEach(() => {
    f = new Fixture();
    opened = [];
    revealed = [];
    uris.joinPath = (base: PageUri, ...parts: string[]) => pageUri(path.join(base.fsPath, ...parts));
    window.showTextDocument = async (uri: PageUri, options: unknown) => {
      opened.push([uri.fsPath, options]);
      return { revealRange: (range: unknown, how: unknown) => void revealed.push([range, how]) };
    };
  });
  afterEach(() => {
    delete uris.joinPath;
    delete window.showTextDocument;
    f.remove();
  });

  /** The extension's folder with `page` as its docs/diagnostics.md (none when undefined). */
  const extensionWith = (page: string | undefined) => {
    const root = f.mkdir('extension');
    if (page !== undefined) f.write('extension/docs/diagnostics.md', page);
    return new DiagnosticsDoc(pageUri(root) as never);
  };
  const page = ['# Diagnostics', '', '### `a.first`', '', 'text', '### `b.second`', ''];
  const linkOf = (doc: InstanceType<typeof DiagnosticsDoc>, code: string) => {
    const link = doc.link(code) as unknown as PageUri;
    return [path.relative(f.path('extension'), link.fsPath), link.fragment];
  };

  it("links each code to its heading's line, and a code the page does not list to its top", () => {
    for (const eol of ['\n', '\r\n']) {
      const doc = extensionWith(page.join(eol));
      assert.deepEqual(linkOf(doc, 'b.second'), ['docs/diagnostics.md', 'L6'], JSON.stringify(eol));
      assert.deepEqual(linkOf(doc, 'a.first'), ['docs/diagnostics.md', 'L3']);
      assert.deepEqual(linkOf(doc, 'c.unlisted'), ['docs/diagnostics.md', 'L1']);
    }
  });

  it('reads the page once, however many diagnostics ask for their link', () => {
    const doc = extensionWith(page.join('\n'));
    assert.equal(doc.line('b.second'), 5);
    f.write('extension/docs/diagnostics.md', ['### `b.second`', ...page].join('\n'));
    assert.equal(doc.line('b.second'), 5);
  });

  it('opens a build without the page at the top', () => {
    assert.deepEqual(linkOf(extensionWith(undefined), 'a.first'), ['docs/diagnostics.md', 'L1']);
  });

  it('shows the page as a preview, the heading selected and at the top of the editor', async () => {
    const doc = extensionWith(page.join('\n'));
    await doc.show('b.second');
    const atHeading = new vscodeStandIn.api.Range(5, 0, 5, 0);
    assert.deepEqual(opened, [[f.path('extension/docs/diagnostics.md'), { preview: true, selection: atHeading }]]);
    assert.deepEqual(revealed, [[atHeading, vscodeStandIn.api.TextEditorRevealType.AtTop]]);
  });

  it('is the command the extension contributes', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as {
      contributes: { commands: { command: string }[] };
    };
    assert.ok(manifest.contributes.commands.some((c) => c.command === DiagnosticsDoc.command));
    assert.equal(DiagnosticsDoc.command, 'skillgate.showDiagnosticDocumentation');
  });
});
