import * as path from 'node:path';
import { childrenOf } from '../core/index/snapshot';
import { hashTarget } from '../core/index/hashTarget';
import {
  envelope,
  envelopeToWrite,
  contractDetail,
  contractDiagnostic,
  contractItem,
  displayPath,
  itemsById,
  scopedPath,
} from '../core/report/contract';
import { toSarif } from '../core/report/sarif';
import { displayText } from '../core/text/displayText';
import { explainItem, explainText } from '../core/report/explain';
import { reviewText } from '../core/review/reviewText';
import { hookLoadFails } from '../core/review/hookLoad';
import { shortToken } from '../core/report/shortToken';
import { review } from '../core/trust/reviewBundle';
import { trust } from '../core/trust/grantTrust';
import { disable, enable, revoke, withdrawalText } from '../core/trust/switches';
import { check, checkPasses, unreadPlaces, unreadPlacesProblem } from '../core/trust/checkGate';
import { doctor } from '../core/trust/doctor';
import { hooksOptedIn, pluginInstaller } from '../core/systems/registry';
import { afterTrustWithSwitch, afterTrustWithoutSwitch, hasEnableSwitch } from '../core/trust/enableSwitch';
import { UNAVAILABLE_EFFECT } from '../core/trust/trustStore';
import { diagnosticsText, listText, showText } from './render';
import { checkLocks, writeLocks } from './lockCommands';
import type { Invocation } from './invocation';

/** One CLI command: resolves to the exit code (0 ok, 1 errors or refusal). */
export type CliCommand = (c: Invocation) => number | Promise<number>;

function list(c: Invocation): number {
  const snapshot = c.index();
  if (c.options.json) c.json(envelopeToWrite(snapshot));
  else c.io.out(listText(snapshot));
  return 0;
}

function validate(c: Invocation, version: string): number {
  const snapshot = c.index();
  if (c.options.format === 'sarif') c.json(toSarif(snapshot, version));
  else if (c.options.format === 'json') c.json(envelopeToWrite(snapshot));
  else c.io.out(diagnosticsText(snapshot));
  return snapshot.diagnostics.some((d) => d.severity === 'error') ? 1 : 0;
}

function show(c: Invocation): number {
  const snapshot = c.index();
  const item = c.select(snapshot);
  if (!c.options.json) {
    c.io.out(showText(snapshot, item));
    return 0;
  }
  const parts = childrenOf(snapshot, item.id);
  const items = [item, ...parts];
  const ids = new Set(items.map((i) => i.id));
  const state = c.store.read();
  const entry = state.ok && item.detail.bundleKey ? state.state.bundles[item.detail.bundleKey] : undefined;
  const rev = item.trust !== null ? review(item, c.lifecycle) : undefined;
  c.json({
    ...envelope(
      snapshot,
      items,
      snapshot.diagnostics.filter((d) => d.itemId !== null && ids.has(d.itemId)),
    ),
    detail: { ...contractDetail(item, parts), receipt: entry?.trust ?? null, diff: rev?.ok ? rev.value.diff : null },
  });
  return 0;
}

function explain(c: Invocation): number {
  const snapshot = c.index();
  const item = c.select(snapshot);
  const sections = explainItem(snapshot, item);
  if (c.options.json)
    c.json({
      ok: true,
      message: sections[0]?.title ?? '',
      id: item.id,
      decision: item.decision,
      reasons: item.reasons,
      sections,
    });
  else c.io.out(explainText(sections));
  return 0;
}

function hash(c: Invocation): number {
  const r = hashTarget(path.resolve(c.io.cwd, c.arg(0, 'a bundle directory or manifest file')));
  if (!r.ok) return c.outcome(false, r.message);
  if (c.options.json)
    return c.outcome(true, `${r.system} bundle ${r.name}`, {
      system: r.system,
      name: r.name,
      contentHash: r.contentHash,
      capabilityHash: r.capabilityHash,
      reviewToken: r.reviewToken,
    });
  c.io.out(
    `${r.system} bundle ${displayText(r.name)}\ncontent hash:    ${r.contentHash}\ncapability hash: ${r.capabilityHash}\nreview token:    ${r.reviewToken}\n`,
  );
  return 0;
}

function reviewCommand(c: Invocation): number {
  const snapshot = c.index();
  const selected = c.select(snapshot);
  const r = review(selected, c.lifecycle);
  if (!r.ok) return c.outcome(false, r.message);
  if (c.options.json) {
    const byId = itemsById(snapshot, r.value.diagnostics);
    return c.outcome(true, `review of ${r.value.item.name}`, {
      ...r.value,
      // `files` is the contract (cli.md: path, size, sha256, executable); the list the text shows beside it is not.
      coveredFiles: undefined,
      item: contractItem(r.value.item, snapshot.workspaces),
      diagnostics: r.value.diagnostics.map((d) => contractDiagnostic(d, snapshot.workspaces, byId)),
    });
  }
  c.io.out(
    reviewText(
      r.value,
      snapshot.workspaces,
      hooksOptedIn(r.value.item, c.io.env),
      hookLoadFails(snapshot, r.value.item.id),
      // Whether the bundle is active is the index's decision: the review reads it without the store.
      selected,
    ),
  );
  return 0;
}

async function trustCommand(c: Invocation): Promise<number> {
  const item = c.select(c.index());
  const r = await trust(item, c.arg(1, 'the review token shown by `skillgate review`'), c.lifecycle);
  if (!r.ok) return c.outcome(false, r.message, { id: item.id });
  const token = r.value.item.reviewToken;
  // `snapshot` names the reviewed copy in the JSON contract (spec/cli.md), as it always has.
  // What trust changes: a bundle with an enable switch waits for `enable`; for an agent without one, nothing it loads.
  const next = hasEnableSwitch(item)
    ? afterTrustWithSwitch(item, `you run \`skillgate enable ${item.id}\``)
    : afterTrustWithoutSwitch(item);
  return c.outcome(true, `Trusted ${item.name} at ${token ? shortToken(token) : '?'}; ${next}.`, {
    id: item.id,
    reviewToken: token,
    enabled: hasEnableSwitch(item) ? false : null,
    snapshot: r.value.reviewedCopy,
  });
}

async function enableCommand(c: Invocation): Promise<number> {
  const item = c.select(c.index());
  const r = await enable(item, c.lifecycle);
  if (!r.ok) return c.outcome(false, r.message, { id: item.id });
  return c.outcome(true, `Enabled ${item.name}.${r.value.note ? ` ${r.value.note}` : ''}`, {
    id: item.id,
    enabled: true,
  });
}

/** `disable` and `revoke`: each only reduces what runs, and says so when there was nothing to change. */
function withdraw(operation: 'disable' | 'revoke'): CliCommand {
  return async (c) => {
    const item = c.select(c.index());
    const r = operation === 'disable' ? await disable(item, c.lifecycle) : await revoke(item, c.lifecycle);
    if (!r.ok) return c.outcome(false, r.message, { id: item.id });
    return c.outcome(true, withdrawalText(operation, item.name, r.value.changed), {
      id: item.id,
      changed: r.value.changed,
    });
  };
}

function lock(c: Invocation): number {
  return writeLocks(c.index(), typeof c.cmd.flags.lock === 'string' ? c.cmd.flags.lock : '', c.io, c.options.json);
}

function checkCommand(c: Invocation, version: string): number {
  const snapshot = c.index();
  // The CI form: against the repository's lock, never the trust store (a runner has none).
  if (typeof c.cmd.flags.lock === 'string')
    return checkLocks(snapshot, c.cmd.flags.lock, c.options.format, c.io, version, c.lifecycle);
  const failing = check(snapshot);
  const ok = checkPasses(snapshot, failing);
  const notTrusted = `${failing.length} bundle(s) the agents would load are not trusted at their current hashes`;
  // A store that cannot be read is no bundle's problem: said once, in `doctor`'s words, apart from
  // the bundles the agents load, so that no rejected or shadowed bundle is listed as loaded.
  const store = !ok && snapshot.trustProblem ? `the trust store is unavailable: ${snapshot.trustProblem}` : null;
  // Files Skillgate's own limits left unread, with no bundle to name: said once, as the store is.
  const places = unreadPlaces(snapshot);
  const unread = unreadPlacesProblem(places);
  if (c.options.json) {
    const said = [store && `${store}; no bundle counts as trusted`, failing.length ? notTrusted : null, unread];
    const message = said.filter((m): m is string => m !== null).join('; ');
    c.json({
      ok,
      message: message || 'every bundle the agents would load is trusted',
      failing: failing.map((f) => ({ ...contractItem(f.item, snapshot.workspaces), problem: f.problem })),
    });
  } else if (ok) c.io.out('ok: every bundle the agents would load is trusted at its current hashes\n');
  else {
    if (store)
      c.io.err(`skillgate: ${displayText(store)}\n  ${UNAVAILABLE_EFFECT} Run \`skillgate doctor\` to see why.\n`);
    if (failing.length > 0) c.io.err(`skillgate: ${notTrusted}:\n`);
    for (const f of failing)
      c.io.err(
        `  ${displayText(`${f.item.system} ${f.item.kind} ${f.item.name} (${scopedPath(f.item, f.item.path, snapshot.workspaces)}): ${f.problem}`)}\n`,
      );
    if (unread !== null) c.io.err(`skillgate: ${unread}:\n`);
    for (const d of places) c.io.err(`  ${displayText(`${displayPath(d.file, snapshot.workspaces)}: ${d.message}`)}\n`);
  }
  return ok ? 0 : 1;
}

function doctorCommand(c: Invocation): number {
  const report = doctor(c.store, { repair: c.cmd.flags.repair === true, prune: c.cmd.flags.prune === true });
  const ok = report.problem === null;
  if (c.options.json) {
    c.json({
      ok,
      message: ok ? 'the trust store is healthy' : `the trust store is unavailable: ${report.problem}`,
      ...report,
    });
    return ok ? 0 : 1;
  }
  const out = c.io.out;
  out(`trust store: ${displayText(report.store)}\n`);
  out(
    ok
      ? `  healthy: ${report.bundles} bundle record(s)\n`
      : `  UNAVAILABLE: ${displayText(report.problem ?? '')}\n  ${UNAVAILABLE_EFFECT} ${report.repairable ? 'Run `skillgate doctor --repair` to move the file aside (trust records in it are then lost).' : 'Fix it as it says: the file may hold sound trust records, so `--repair` leaves it where it is.'}\n`,
  );
  if (report.movedAside) out(`  moved the bad file aside to ${displayText(report.movedAside)}\n`);
  const earlier = report.setAside.filter((f) => f !== report.movedAside);
  if (earlier.length > 0)
    out(
      `  ${earlier.length} bad file(s) moved aside by an earlier --repair (never read; delete them once you no longer need them):\n${earlier.map((f) => `    ${displayText(f)}\n`).join('')}`,
    );
  for (const s of report.staleReceipts)
    out(`  ${displayText(`stale receipt: ${s.name} (${s.path} no longer exists)`)}\n`);
  // Which snapshots a receipt references is in the store: unreadable, they are not counted, and none is pruned.
  out(
    ok
      ? `  unreferenced snapshots: ${report.unreferencedSnapshots.length}${report.pruned.length ? ` (pruned ${report.pruned.length})` : report.unreferencedSnapshots.length && !report.notPruned ? ' (run `skillgate doctor --prune` to remove them)' : ''}\n`
      : `  unreferenced snapshots: not counted while the trust store is unavailable${c.cmd.flags.prune === true ? '; nothing was pruned' : ''}\n`,
  );
  if (report.notPruned) out(`  ${displayText(report.notPruned)}\n`);
  return ok ? 0 : 1;
}

async function install(c: Invocation): Promise<number> {
  const repo = c.options.workspaces[0] as string;
  const name = typeof c.cmd.flags.name === 'string' ? c.cmd.flags.name : undefined;
  const arg = c.arg(0, 'a plugin manifest');
  // Joined, not path.resolve'd: that drops `lnk/..` before the link is followed, and Rivumi follows it first.
  const manifest = path.isAbsolute(arg) ? arg : `${c.io.cwd}${path.sep}${arg}`;
  const r = pluginInstaller().installPlugin(manifest, repo, {
    ...(name ? { name } : {}),
    overwrite: c.cmd.flags.overwrite === true,
  });
  if (!r.ok) return c.outcome(false, r.message);
  // A freshly installed plugin is never trusted, even where an older copy was (Rivumi has no enable bit to clear).
  const item = c.index().items.find((i) => i.path === r.file);
  if (item) {
    // Said only when it is so: an older receipt could match the same bytes again.
    const r2 = await revoke(item, c.lifecycle);
    if (!r2.ok)
      return c.outcome(
        false,
        `Installed plugin ${r.name} at ${r.source}, but its old trust record could not be dropped: ${r2.message}`,
        { name: r.name, source: r.source },
      );
  }
  return c.outcome(
    true,
    `Installed plugin ${r.name} at ${r.source}. It is not reviewed, and ${r.loads}: run \`skillgate review ${r.name}\`, or remove the file.`,
    { name: r.name, source: r.source, files: r.written.map((f) => displayPath(f, [repo])) },
  );
}

/** Every command that reads the workspace, by the name the command line gives it (spec/cli.md "Commands"). */
export function cliCommands(version: string): Readonly<Record<string, CliCommand>> {
  return {
    list,
    validate: (c) => validate(c, version),
    show,
    explain,
    hash,
    review: reviewCommand,
    trust: trustCommand,
    enable: enableCommand,
    disable: withdraw('disable'),
    revoke: withdraw('revoke'),
    lock,
    check: (c) => checkCommand(c, version),
    doctor: doctorCommand,
    install,
  };
}
