import { hooksOptIn, hooksOptedIn } from '../../core/systems/registry';
import * as crypto from 'node:crypto';
import * as vscode from 'vscode';
import { openableUri } from '../documents/fileUri';
import { reviewViewModel, type ReviewViewModel } from '../../core/review/reviewViewModel';
import { parseWebviewMessage, type HostMessage } from './reviewProtocol';
import { enableFlow, trustFlow } from '../flows/trustFlow';
import { displayText } from '../../core/text/displayText';
import { withdrawalText } from '../../core/trust/switches';
import { reviewPanelTitle } from '../tree/itemText';
import type { SkillgateService } from '../skillgateService';
import type { GatePort, LifecyclePort, UiPort } from '../flows/ports';
import type { Snapshot } from '../../core/index/snapshot';
import type { Item } from '../../core/model';

export const REVIEW_VIEW_TYPE = 'skillgate.review';

/**
 * One review panel per bundle, reused when reopened and restored after a reload. The
 * panel shows the review model the host built; its buttons post messages that the host
 * validates and re-checks (workspace trust, current hashes) before acting.
 */
export class ReviewPanels implements vscode.Disposable, vscode.WebviewPanelSerializer {
  private readonly panels = new Map<string, ReviewPanel>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly service: SkillgateService,
    private readonly ui: UiPort,
  ) {}

  /** The token a visible panel shows for an item: what "the review was shown" means. */
  shownToken(itemId: string): string | undefined {
    return this.panels.get(itemId)?.shownToken;
  }

  open(item: Item): void {
    const existing = this.panels.get(item.id);
    if (existing) {
      existing.reveal();
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      REVIEW_VIEW_TYPE,
      reviewPanelTitle(item, this.service.snapshot?.workspaces),
      vscode.ViewColumn.Active,
      this.options(),
    );
    this.adopt(panel, item.id);
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    // Options are reset on restore: a stored state must never widen what the webview may load.
    panel.webview.options = this.options();
    const id =
      typeof state === 'object' && state !== null && typeof (state as { id?: unknown }).id === 'string'
        ? (state as { id: string }).id
        : undefined;
    const snapshot = await this.service.published();
    if (!id || !snapshot.items.some((i) => i.id === id)) {
      panel.dispose();
      return;
    }
    this.adopt(panel, id);
  }

  /** Re-renders open panels after a change on disk or in the trust store. */
  update(snapshot: Snapshot): void {
    for (const p of this.panels.values()) p.refresh(snapshot);
  }

  private options(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return {
      enableScripts: true,
      enableCommandUris: false,
      retainContextWhenHidden: false,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'media')],
    };
  }

  private adopt(panel: vscode.WebviewPanel, itemId: string): void {
    const p = new ReviewPanel(panel, itemId, this.extensionUri, this.service, this.ui, {
      workspaceTrusted: () => vscode.workspace.isTrusted,
      shownToken: (id) => this.shownToken(id),
      hooksOptIn: (item) => hooksOptIn(item, process.env),
    });
    this.panels.set(itemId, p);
    panel.onDidDispose(() => this.panels.delete(itemId));
  }

  dispose(): void {
    for (const p of this.panels.values()) p.dispose();
  }
}

class ReviewPanel {
  shownToken: string | undefined;
  private model: ReviewViewModel | undefined;
  /** Set when the bundle changed on disk while this panel was open; stays until the user trusts again. */
  private changedWhileOpen = false;
  /** What the last render depended on in the snapshot; an unrelated change re-reads nothing. */
  private renderedState: string | undefined;
  private ready = false;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly itemId: string,
    extensionUri: vscode.Uri,
    private readonly service: SkillgateService,
    private readonly ui: UiPort,
    private readonly gate: GatePort,
  ) {
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'shield.svg');
    panel.webview.html = html(panel.webview, extensionUri);
    this.disposables.push(
      panel.webview.onDidReceiveMessage(
        (raw) =>
          // An action can fail (a file the review lists, removed before the click, which the editor
          // will not open): said in the panel's status line, not left an unhandled rejection.
          void this.onMessage(raw).catch((e: unknown) =>
            this.post({ type: 'status', text: e instanceof Error ? e.message : String(e), error: true }),
          ),
      ),
    );
  }

  reveal(): void {
    this.panel.reveal();
  }

  refresh(snapshot: Snapshot): void {
    if (this.ready) this.render(snapshot, true);
  }

  private item(snapshot: Snapshot | undefined): Item | undefined {
    return snapshot?.items.find((i) => i.id === this.itemId);
  }

  private render(snapshot: Snapshot | undefined, fromChange: boolean): void {
    const item = this.item(snapshot);
    // A bundle without a token (its manifest does not parse) has no hash to tell a change by: always read again.
    // Workspace trust is part of it: granted, the panel's Restricted Mode notice and refusals must go, though
    // a bundle already trusted (an Eva skill) reads the same in the snapshot either way.
    const state =
      item && snapshot && item.reviewToken !== null
        ? JSON.stringify([
            vscode.workspace.isTrusted,
            item.reviewToken,
            item.trust,
            item.enabled,
            item.decision,
            item.reasons,
            snapshot.diagnostics
              .filter((d) => d.itemId === item.id)
              .map((d) => [d.code, d.range.start.line, d.message]),
          ])
        : undefined;
    if (fromChange && state !== undefined && state === this.renderedState) return;
    this.renderedState = state;
    if (!item || !snapshot) {
      this.post({ type: 'status', text: 'This bundle is gone from disk.', error: true });
      this.shownToken = undefined;
      return;
    }
    const r = this.service.review(item);
    if (!r.ok) {
      this.post({ type: 'status', text: r.message, error: true });
      this.shownToken = undefined;
      return;
    }
    const model = reviewViewModel(
      r.value,
      snapshot,
      hooksOptedIn(r.value.item, process.env),
      vscode.workspace.isTrusted,
    );
    const changed =
      fromChange &&
      this.model !== undefined &&
      (this.model.hashes.token !== model.hashes.token || this.model.hashes.content !== model.hashes.content);
    if (changed) this.changedWhileOpen = true;
    if (fromChange && this.model && !changed && JSON.stringify(this.model) === JSON.stringify(model)) return;
    this.model = model;
    // A review that cannot be trusted shows no token to trust with. Nor does a new token reach a
    // hidden panel: its webview is gone (retainContextWhenHidden is off) and drops this render, so
    // the palette's Trust must not take a token the person never saw; revealed, it asks again ('ready').
    const token = r.value.trustable ? (model.hashes.token ?? undefined) : undefined;
    this.shownToken = this.panel.visible || token === this.shownToken ? token : undefined;
    this.panel.title = reviewPanelTitle(item, snapshot.workspaces);
    this.post({
      type: 'render',
      model: JSON.parse(JSON.stringify(model)) as ReviewViewModel,
      changed: this.changedWhileOpen,
    });
  }

  private post(m: HostMessage): void {
    // Status lines name bundles and carry core messages: shown as text, escaped like every other.
    void this.panel.webview.postMessage(m.type === 'status' ? { ...m, text: displayText(m.text) } : m);
  }

  private async onMessage(raw: unknown): Promise<void> {
    const msg = parseWebviewMessage(raw);
    if (!msg) return; // not our protocol: ignored
    const snapshot = this.service.snapshot;
    const item = this.item(snapshot);
    if (msg.type === 'ready') {
      this.ready = true;
      this.render(snapshot, false);
      return;
    }
    if (!item) return;
    const lifecycle: LifecyclePort = this.service;
    const status = (text: string, error = false) => this.post({ type: 'status', text, error });
    const copy = async (text: string | null | undefined, done: string, none: string) => {
      if (!text) return status(none, true);
      await vscode.env.clipboard.writeText(text);
      status(done);
    };
    // The offer to enable again is a notification, as from the palette: the panel's status line has no buttons.
    const ui: UiPort = {
      confirm: (m, d, a, o) => this.ui.confirm(m, d, a, o),
      offer: (m, a) => this.ui.offer(m, a),
      info: (t) => status(t),
      error: (t) => status(t, true),
    };
    switch (msg.type) {
      case 'trust':
        // Only the token this panel rendered (the flow checks it), and only what can be trusted now: a stale message is re-checked against the disk.
        if ((await trustFlow(item, msg.token, { ui, gate: this.gate, lifecycle })) === 'trusted')
          this.changedWhileOpen = false;
        break;
      case 'enable':
        await enableFlow(item, { ui, gate: this.gate, lifecycle });
        break;
      case 'disable': {
        const r = await this.service.disable(item);
        status(r.ok ? withdrawalText('disable', item.name, r.value.changed) : r.message, !r.ok);
        break;
      }
      case 'revoke': {
        const r = await this.service.revoke(item);
        status(r.ok ? withdrawalText('revoke', item.name, r.value.changed) : r.message, !r.ok);
        break;
      }
      // Copies what the panel shows, as the palette's Copy Review Token does for any bundle with
      // a token: a review that cannot be trusted still shows its token (the CLI's `review` prints it).
      case 'copyToken':
        await copy(this.model?.hashes.token, 'Review token copied.', 'No review token: the bundle cannot be hashed.');
        break;
      case 'copyCodewhaleCommand':
        await copy(
          this.model?.hashes.codewhaleCommand?.text,
          'Codewhale /plugin trust command copied.',
          'No Codewhale /plugin trust command for this bundle.',
        );
        break;
      case 'open': {
        // Only files this review shows may be opened. A diagnostic can sit on what the review could not
        // hash (a link, which is never followed; a FIFO): that opens as a note saying so (openableUri).
        const allowed = new Set([
          ...(this.model?.files.flatMap((f) => ('file' in f ? [f.file] : [])) ?? []),
          ...(this.model?.diagnostics.map((d) => d.file) ?? []),
          ...(this.model?.changes?.files.map((f) => f.file) ?? []),
        ]);
        if (!allowed.has(msg.file)) return;
        await vscode.window.showTextDocument(await openableUri(msg.file), {
          selection: new vscode.Range(msg.line, 0, msg.line, 0),
          preview: true,
          viewColumn: vscode.ViewColumn.Beside,
        });
        break;
      }
    }
    this.render(this.service.snapshot, false);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.panel.dispose();
  }
}

/** Strict CSP with a per-render nonce; scripts, styles and fonts only from the extension's media folder. */
function html(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = crypto.randomBytes(18).toString('base64');
  const media = (f: string) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', f)).toString();
  const csp = [
    `default-src 'none'`,
    `img-src ${webview.cspSource} data:`,
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${media('codicons/codicon.css')}">
<link rel="stylesheet" href="${media('review.css')}">
<title>Skillgate review</title>
</head>
<body>
<main id="root" aria-live="polite"><p>Loading the review…</p></main>
<script nonce="${nonce}" src="${media('review.js')}"></script>
</body>
</html>`;
}
