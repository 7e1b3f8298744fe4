import * as path from 'node:path';
import { Indexer } from '../core/index/indexer';
import { childrenOf, type Snapshot } from '../core/index/snapshot';
import { hashTarget } from '../core/index/hashTarget';
import { envelope, contractDiagnostic, contractItem, displayPath, itemsById } from '../core/report/contract';
import { toSarif } from '../core/report/sarif';
import { jsonText } from '../core/report/jsonText';
import { displayText } from '../core/text/displayText';
import { explainItem, explainText } from '../core/report/explain';
import { reviewText } from '../core/report/reviewText';
import { TrustStore } from '../core/trust/trustStore';
import { defaultStateDirectory } from '../core/trust/stateDirectory';
import { check, disable, doctor, enable, review, revoke, trust, type LifecycleContext } from '../core/trust/lifecycle';
import { pluginInstaller } from '../core/systems/registry';
import { checkWorkspaces, parseCommandLine, UsageError, USAGE, type ParsedCommand } from './options';
import { selectItem } from './selector';
import { diagnosticsText, listText, showText } from './render';
import { checkLocks, writeLocks } from './lockCommands';
import type { Item } from '../core/model';

declare const SKILLGATE_VERSION: string | undefined;
const VERSION = typeof SKILLGATE_VERSION === 'string' ? SKILLGATE_VERSION : '0.0.0-dev';

export interface Io {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

/** Runs one CLI invocation; resolves to the exit code (0 ok, 1 errors or refusal, 2 usage or internal). */
export async function run(argv: readonly string[], raw: Io): Promise<number> {
  // Everything printed passes the display escape as a last line of defence; each field
  // and line below is escaped as one line first, so a newline in a name never starts a line.
  const io: Io = { ...raw, out: (t) => raw.out(displayText(t, 'multi-line')), err: (t) => raw.err(displayText(t, 'multi-line')) };
  let cmd: ParsedCommand;
  try {
    cmd = parseCommandLine(argv, io.env, io.cwd);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`skillgate: ${displayText(e.message)}\n${USAGE}`);
      return 2;
    }
    return internalError(e, io);
  }
  try {
    return await dispatch(cmd, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`skillgate: ${displayText(e.message)}\n`);
      return 2;
    }
    return internalError(e, io);
  }
}

/** Anything that still escapes (the index itself contains a fault to its bundle): one sentence, exit 2. */
function internalError(e: unknown, io: Io): number {
  const error = e instanceof Error ? e : new Error(String(e));
  io.err(`skillgate: internal error: ${displayText(error.message)}\n${io.env.SKILLGATE_DEBUG === '1' ? `${displayText(error.stack ?? '', 'multi-line')}\n` : ''}`);
  return 2;
}

async function dispatch(cmd: ParsedCommand, io: Io): Promise<number> {
  if (cmd.command !== 'help' && cmd.command !== 'version') checkWorkspaces(cmd, io.cwd);
  const o = cmd.options;
  const json = (value: unknown) => io.out(jsonText(value));
  const store = new TrustStore(o.stateDir ? path.resolve(io.cwd, o.stateDir) : defaultStateDirectory(io.env));
  const hooksOptIn = io.env.RIVUMI_ENABLE_PROJECT_HOOKS === '1';
  const index = (): Snapshot =>
    new Indexer({ workspaces: o.workspaces, codewhaleHome: o.codewhaleHome, evaHome: o.evaHome, evaRuntime: o.evaRuntime, rivumiHooksEnv: io.env.RIVUMI_ENABLE_PROJECT_HOOKS, trust: () => store.view() }).indexAll();
  const lifecycle: LifecycleContext = { store };
  const arg = (i: number, what: string): string => {
    const a = cmd.args[i];
    if (a === undefined) throw new UsageError(`\`${cmd.command}\` needs ${what}`);
    return a;
  };
  const select = (snapshot: Snapshot): Item => {
    const sel = selectItem(snapshot, arg(0, 'a selector (an item id or a name)'));
    if (!sel.ok) throw new UsageError(sel.message);
    return sel.item;
  };
  /** Reports an operation's outcome: one sentence, `--json` as `{ ok, message, ... }`. */
  const outcome = (ok: boolean, message: string, facts: Record<string, unknown> = {}): number => {
    if (o.json) json({ ok, message, ...facts });
    else if (ok) io.out(`${displayText(message)}\n`);
    else io.err(`skillgate: ${displayText(message)}\n`);
    return ok ? 0 : 1;
  };

  switch (cmd.command) {
    case undefined:
    case 'help':
      io.out(USAGE);
      return cmd.command === undefined ? 2 : 0;
    case 'version':
      io.out(`${VERSION}\n`);
      return 0;
    case 'list': {
      const snapshot = index();
      if (o.json) json(envelope(snapshot));
      else io.out(listText(snapshot));
      return 0;
    }
    case 'validate': {
      const snapshot = index();
      if (o.format === 'sarif') json(toSarif(snapshot, VERSION));
      else if (o.format === 'json') json(envelope(snapshot));
      else io.out(diagnosticsText(snapshot));
      return snapshot.diagnostics.some((d) => d.severity === 'error') ? 1 : 0;
    }
    case 'show': {
      const snapshot = index();
      const item = select(snapshot);
      if (o.json) {
        const items = [item, ...childrenOf(snapshot, item.id)];
        const ids = new Set(items.map((i) => i.id));
        const state = store.read();
        const entry = state.ok && item.detail.bundleKey ? state.state.bundles[item.detail.bundleKey] : undefined;
        const rev = item.trust !== null ? review(item, lifecycle) : undefined;
        json({
          ...envelope(snapshot, items, snapshot.diagnostics.filter((d) => d.itemId !== null && ids.has(d.itemId))),
          detail: { ...item.detail, receipt: entry?.trust ?? null, diff: rev?.ok ? rev.value.diff : null },
        });
      } else io.out(showText(snapshot, item));
      return 0;
    }
    case 'explain': {
      const snapshot = index();
      const item = select(snapshot);
      const sections = explainItem(snapshot, item);
      if (o.json) json({ ok: true, message: sections[0]?.title ?? '', id: item.id, decision: item.decision, reasons: item.reasons, sections });
      else io.out(explainText(sections));
      return 0;
    }
    case 'hash': {
      const r = hashTarget(path.resolve(io.cwd, arg(0, 'a bundle directory or manifest file')));
      if (!r.ok) return outcome(false, r.message);
      if (o.json) return outcome(true, `${r.system} bundle ${r.name}`, { system: r.system, name: r.name, contentHash: r.contentHash, capabilityHash: r.capabilityHash, reviewToken: r.reviewToken });
      io.out(`${r.system} bundle ${displayText(r.name)}\ncontent hash:    ${r.contentHash}\ncapability hash: ${r.capabilityHash}\nreview token:    ${r.reviewToken}\n`);
      return 0;
    }
    case 'review': {
      const snapshot = index();
      const r = review(select(snapshot), lifecycle);
      if (!r.ok) return outcome(false, r.message);
      if (o.json) return outcome(true, `review of ${r.value.item.name}`, { ...r.value, item: contractItem(r.value.item, snapshot.workspaces), diagnostics: r.value.diagnostics.map((d) => contractDiagnostic(d, snapshot.workspaces, itemsById(snapshot))) });
      io.out(reviewText(r.value, snapshot.workspaces, hooksOptIn));
      return 0;
    }
    case 'trust': {
      const snapshot = index();
      const item = select(snapshot);
      const r = await trust(item, arg(1, 'the review token shown by `skillgate review`'), lifecycle);
      if (!r.ok) return outcome(false, r.message, { id: item.id });
      return outcome(true, `Trusted ${item.name} at ${shortToken(r.value.item.reviewToken)}; it stays disabled until you run \`skillgate enable ${item.id}\`.`, { id: item.id, reviewToken: r.value.item.reviewToken, enabled: false, snapshot: r.value.snapshot });
    }
    case 'enable': {
      const snapshot = index();
      const item = select(snapshot);
      const r = await enable(item, lifecycle);
      if (!r.ok) return outcome(false, r.message, { id: item.id });
      return outcome(true, `Enabled ${item.name}.${r.value.note ? ` ${r.value.note}` : ''}`, { id: item.id, enabled: true });
    }
    case 'disable':
    case 'revoke': {
      const snapshot = index();
      const item = select(snapshot);
      const r = cmd.command === 'disable' ? await disable(item, lifecycle) : await revoke(item, lifecycle);
      if (!r.ok) return outcome(false, r.message, { id: item.id });
      const did = cmd.command === 'disable' ? 'Disabled' : 'Revoked trust in';
      return outcome(true, r.value.changed ? `${did} ${item.name}.` : `${item.name} has no trust record; nothing to ${cmd.command}.`, { id: item.id, changed: r.value.changed });
    }
    case 'lock':
      return writeLocks(index(), typeof cmd.flags.lock === 'string' ? cmd.flags.lock : '', io, o.json);
    case 'check': {
      const snapshot = index();
      // The CI form: against the repository's lock, never the trust store (a runner has none).
      if (typeof cmd.flags.lock === 'string') return checkLocks(snapshot, cmd.flags.lock, o.format, io, VERSION, lifecycle);
      const failing = check(snapshot);
      const where = (i: Item) => (i.scope === 'user' ? i.path : displayPath(i.path, snapshot.workspaces));
      if (o.json) json({ ok: failing.length === 0, message: failing.length ? `${failing.length} bundle(s) the agents would load are not trusted at their current hashes` : 'every bundle the agents would load is trusted', failing: failing.map((f) => ({ ...contractItem(f.item, snapshot.workspaces), problem: f.problem })) });
      else if (failing.length === 0) io.out('ok: every bundle the agents would load is trusted at its current hashes\n');
      else {
        io.err(`skillgate: ${failing.length} bundle(s) the agents would load are not trusted at their current hashes:\n`);
        for (const f of failing) io.err(`  ${displayText(`${f.item.system} ${f.item.kind} ${f.item.name} (${where(f.item)}): ${f.problem}`)}\n`);
      }
      return failing.length === 0 ? 0 : 1;
    }
    case 'doctor': {
      const report = doctor(store, { repair: cmd.flags.repair === true, prune: cmd.flags.prune === true });
      const ok = report.problem === null;
      if (o.json) json({ ok, message: ok ? 'the trust store is healthy' : `the trust store is unavailable: ${report.problem}`, ...report });
      else {
        io.out(`trust store: ${displayText(report.store)}\n`);
        io.out(ok ? `  healthy: ${report.bundles} bundle record(s)\n` : `  UNAVAILABLE: ${displayText(report.problem ?? '')}\n  Every bundle is disabled until this is fixed. Run \`skillgate doctor --repair\` to move the file aside (trust records in it are then lost).\n`);
        if (report.movedAside) io.out(`  moved the bad file aside to ${displayText(report.movedAside)}\n`);
        for (const s of report.staleReceipts) io.out(`  ${displayText(`stale receipt: ${s.name} (${s.path} no longer exists)`)}\n`);
        io.out(`  unreferenced snapshots: ${report.unreferencedSnapshots.length}${report.pruned.length ? ` (pruned ${report.pruned.length})` : report.unreferencedSnapshots.length ? ' (run `skillgate doctor --prune` to remove them)' : ''}\n`);
      }
      return ok ? 0 : 1;
    }
    case 'install': {
      const repo = o.workspaces[0] as string;
      const name = typeof cmd.flags.name === 'string' ? cmd.flags.name : undefined;
      const r = pluginInstaller().installPlugin(path.resolve(io.cwd, arg(0, 'a plugin manifest')), repo, { ...(name ? { name } : {}), overwrite: cmd.flags.overwrite === true });
      if (!r.ok) return outcome(false, r.message);
      // A freshly installed plugin is never trusted, even where an older copy was (Rivumi has no enable bit to clear).
      const snapshot = index();
      const item = snapshot.items.find((i) => i.path === r.file);
      if (item) {
        // Said only when it is so: an older receipt could match the same bytes again.
        const r2 = await revoke(item, lifecycle);
        if (!r2.ok) return outcome(false, `Installed plugin ${r.name} at ${r.source}, but its old trust record could not be dropped: ${r2.message}`, { name: r.name, source: r.source });
      }
      return outcome(true, `Installed plugin ${r.name} at ${r.source}. It is not reviewed, and ${r.loads}: run \`skillgate review ${r.name}\`, or remove the file.`, { name: r.name, source: r.source, files: r.written.map((f) => displayPath(f, [repo])) });
    }
    default:
      throw new UsageError(`unknown command \`${cmd.command}\`; run \`skillgate --help\``);
  }
}

function shortToken(token: string | null): string {
  return token ? `${token.slice(0, 12)}…${token.slice(65, 77)}` : '?';
}
