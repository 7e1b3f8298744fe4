/**
 * Every command the extension registers, one row each. The title, category and icon a
 * user sees are in package.json `contributes.commands`; a row holds what registration
 * and the menus need: where the command may run (`enablement`) and where the palette
 * offers it (`palette`, the `commandPalette` menu's `when`; none: everywhere). No
 * `vscode` import, so a unit test checks this table against package.json.
 */
export interface CommandRow {
  readonly id: string;
  readonly enablement?: string;
  readonly palette?: string;
}

// Restricted Mode: trust, enable and install add what runs, so they are greyed out there (and re-checked by their handlers).
const WORKSPACE_TRUSTED = 'isWorkspaceTrusted';

export const COMMANDS = [
  { id: 'skillgate.refresh' },
  { id: 'skillgate.validateWorkspace' },
  { id: 'skillgate.review' },
  { id: 'skillgate.trust', enablement: WORKSPACE_TRUSTED, palette: WORKSPACE_TRUSTED },
  { id: 'skillgate.enable', enablement: WORKSPACE_TRUSTED, palette: WORKSPACE_TRUSTED },
  { id: 'skillgate.disable' },
  { id: 'skillgate.revoke' },
  { id: 'skillgate.explain' },
  { id: 'skillgate.doctor' },
  { id: 'skillgate.installRivumiPlugin', enablement: WORKSPACE_TRUSTED, palette: WORKSPACE_TRUSTED },
  { id: 'skillgate.copyReviewToken' },
  { id: 'skillgate.openManifest' },
  { id: 'skillgate.focus' },
  { id: 'skillgate.serveSchemasOffline' },
  { id: 'skillgate.showLog' },
  // The Filter and Group commands: in the palette where the view's Filter and Group menu has them
  // (package.json `skillgate.treeMode`), only when they would change the tree; VS Code's guide
  // (api/extension-guides/command, "Controlling when a command shows up in the Command Palette").
  { id: 'skillgate.showNeedsReview', palette: 'skillgate.filter != needsReview' },
  { id: 'skillgate.showRejected', palette: 'skillgate.filter != rejected' },
  { id: 'skillgate.showAll', palette: 'skillgate.filter == needsReview || skillgate.filter == rejected' },
  { id: 'skillgate.groupByDecision', palette: '!skillgate.groupByDecision' },
  { id: 'skillgate.groupByFolder', palette: 'skillgate.groupByDecision' },
  // The status bar's click and the quick fix's documentation link: each takes an argument the palette cannot give.
  { id: 'skillgate.showFiltered', palette: 'false' },
  { id: 'skillgate.showDiagnosticDocumentation', palette: 'false' },
] as const satisfies readonly CommandRow[];

export type CommandId = (typeof COMMANDS)[number]['id'];
