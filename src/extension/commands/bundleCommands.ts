import * as vscode from 'vscode';
import type { LifecyclePort } from '../flows/ports';
import { openableUri } from '../documents/fileUri';
import { editorRange } from '../documents/editorRange';
import { ReadonlyDocuments } from '../documents/readonlyDocuments';
import { isBundle, pickBundle } from './bundlePick';
import { windowUi } from '../windowUi';
import { RESTRICTED_ENABLE, RESTRICTED_TRUST, enableFlow, revokeMeaning, trustFlow } from '../flows/trustFlow';
import { shortToken } from '../../core/report/shortToken';
import { withdrawalText } from '../../core/trust/switches';
import { hooksOptIn } from '../../core/systems/registry';
import type { CommandHandlers } from './commands';
import type { ReviewPanels } from '../review/reviewPanel';
import type { SkillgateService } from '../skillgateService';
import type { Item } from '../../core/model';

/**
 * The commands on one bundle, from the palette and the tree's item menus. Run without
 * an item, each asks with a QuickPick; every handler re-checks what it needs
 * (Restricted Mode, current hashes) rather than trusting that a menu was hidden.
 */
export function bundleCommands(
  service: SkillgateService,
  panels: ReviewPanels,
): CommandHandlers<
  | 'skillgate.review'
  | 'skillgate.trust'
  | 'skillgate.enable'
  | 'skillgate.disable'
  | 'skillgate.revoke'
  | 'skillgate.explain'
  | 'skillgate.copyReviewToken'
  | 'skillgate.openManifest'
> {
  const gate = {
    workspaceTrusted: () => vscode.workspace.isTrusted,
    shownToken: (id: string) => panels.shownToken(id),
    hooksOptIn: (item: Item) => hooksOptIn(item, process.env),
  };
  const lifecycle: LifecyclePort = service;
  const pick = (arg: unknown, what: string, offered: (i: Item) => boolean) => pickBundle(service, arg, what, offered);
  return {
    'skillgate.review': async (arg) => {
      const item = await pick(arg, 'review', isBundle);
      if (item) panels.open(item);
    },
    // Restricted Mode: trust and enable are refused before anything is asked; disable and revoke only reduce what runs and stay allowed.
    'skillgate.trust': async (arg) => {
      if (!gate.workspaceTrusted()) return windowUi.error(RESTRICTED_TRUST);
      const item = await pick(arg, 'trust', (i) => isBundle(i) && i.trust !== 'trusted' && i.decision !== 'rejected');
      if (!item) return;
      const outcome = await trustFlow(item, undefined, { ui: windowUi, gate, lifecycle });
      if (outcome === 'review-first') {
        panels.open(item);
        windowUi.info(`Review ${item.name} first: Trust is in the review panel, for exactly what it shows.`);
      }
    },
    'skillgate.enable': async (arg) => {
      if (!gate.workspaceTrusted()) return windowUi.error(RESTRICTED_ENABLE);
      // Only bundles with an enable switch are offered; one given directly (a Rivumi bundle) is refused by the lifecycle with how to switch it off.
      const item = await pick(arg, 'enable', (i) => isBundle(i) && i.trust === 'trusted' && i.enabled === false);
      if (item) await enableFlow(item, { ui: windowUi, gate, lifecycle });
    },
    'skillgate.disable': async (arg) => {
      const item = await pick(arg, 'disable', (i) => isBundle(i) && i.enabled === true);
      if (!item) return;
      const r = await service.disable(item);
      // A stale row may name one already off: said as it is, as the CLI says it.
      if (r.ok) windowUi.info(withdrawalText('disable', item.name, r.value.changed));
      else windowUi.error(r.message);
    },
    'skillgate.revoke': async (arg) => {
      const item = await pick(arg, 'revoke', (i) => isBundle(i) && i.trust !== 'not-reviewed');
      if (!item) return;
      const after = revokeMeaning(item);
      if (!(await windowUi.confirm(`Revoke trust in ${item.name}?`, `The receipt is removed; ${after}`, 'Revoke')))
        return;
      const r = await service.revoke(item);
      if (r.ok) windowUi.info(withdrawalText('revoke', item.name, r.value.changed));
      else windowUi.error(r.message);
    },
    'skillgate.explain': async (arg) => {
      const item = await pick(arg, 'explain', () => true);
      if (!item) return;
      const workspaces = service.snapshot?.workspaces ?? [];
      await vscode.commands.executeCommand('markdown.showPreview', ReadonlyDocuments.explainUri(item, workspaces));
    },
    'skillgate.copyReviewToken': async (arg) => {
      const item = await pick(arg, 'copy the review token of', (i) => isBundle(i) && i.reviewToken !== null);
      if (!item) return;
      // Given one without a token (a stale row whose manifest broke since, a part): said, not silently skipped.
      if (!item.reviewToken)
        return windowUi.info(
          `${item.name} has no review token: ${isBundle(item) ? 'the bundle cannot be hashed now' : 'only a bundle has one'}.`,
        );
      await vscode.env.clipboard.writeText(item.reviewToken);
      windowUi.info(`Copied the review token of ${item.name} (${shortToken(item.reviewToken)}).`);
    },
    'skillgate.openManifest': async (arg) => {
      const item = await pick(arg, 'open', () => true);
      if (!item) return;
      await vscode.window.showTextDocument(await openableUri(item.location.file), {
        selection: editorRange(item.location.range),
      });
    },
  };
}
