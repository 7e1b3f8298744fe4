import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { readBundleSource } from '../../src/core/trust/bundleSource';
import { readInvalidBundle } from '../../src/core/trust/invalidBundle';
import { hashTarget } from '../../src/core/index/hashTarget';
import type { Snapshot } from '../../src/core/index/snapshot';
import type { Diagnostic, Item } from '../../src/core/model';
import { Fixture, byName, LINUX_HOST, index } from './helpers/fixture';
import { A0, EvaFixture, L0 } from './helpers/evaFixture';

/**
 * The trust-unit readers' rules that `trust.units` leaves open (trust.md "Trust units",
 * "Operations"; rivumi.md §2, §5; eva.md §1, §4.6, §6; cli.md `hash`): a unit read for
 * review carries its own diagnostics and its parts' and no one else's, as Rivumi loads it
 * without the opt-in; `hash` takes a manifest *file* at an agent's manifest place only,
 * and names why a unit there does not hash; an Eva unit's parts are its bindings, a
 * missing covered file is not read, and an Eva skill manifest is found from the nearest
 * project above it.
 */

const NOT_A_BUNDLE = (shown: string) =>
  `${shown} is not a bundle: give a Rivumi plugin manifest (.rivumi/plugins/*.json) or .rivumi/hooks.json, or a Codewhale bundle directory or its manifest, or an Eva skill manifest (a transport: skill adapter or a kind: lua_skill capability under config/)`;

/** The diagnostics of the unit and its parts in an index, as `code itemId` lines. */
const ownLines = (s: Snapshot, unit: Item) => {
  const mine = new Set([unit.id, ...s.items.filter((i) => i.parent === unit.id).map((i) => i.id)]);
  return lines(s.diagnostics.filter((d) => d.itemId !== null && mine.has(d.itemId)));
};
const lines = (ds: readonly Diagnostic[]) => ds.map((d) => `${d.code} ${d.severity} ${d.itemId}`);

describe('Rivumi trust-unit reader: what a unit read for review holds, and what `hash` takes', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());
  // A bidi control in a skill file is a finding on that file, so on the plugin's skill part.
  const BIDI = 'Check risks.\u202e\n';
  const writeUnits = () => {
    f.write('ws/.rivumi/plugins/pk.json', '{"name":"pk","skills":[{"path":"review.md"}]}');
    f.write('ws/.rivumi/plugins/review.md', BIDI);
    f.write('ws/.rivumi/plugins/other.json', '{"name":"other","skills":[{"path":"other.md"}]}');
    f.write('ws/.rivumi/plugins/other.md', BIDI);
    f.write('ws/.rivumi/plugins/bad.json', '{"name":');
    f.write('ws/.rivumi/hooks.json', '{"pre_tool_use":[{"command":[]}]}');
    f.write('ws/.rivumi/skills/loose.md', BIDI);
  };

  it("reads a unit's own diagnostics and its parts', never another unit's", () => {
    writeUnits();
    const s = index([f.path('ws')]);
    const pk = byName(s, 'pk');
    const part = s.items.find((i) => i.parent === pk.id);
    assert.ok(part);
    assert.ok(
      s.diagnostics.some((d) => d.itemId === part.id),
      'the skill part has a finding of its own',
    );
    for (const other of ['other', 'bad', 'hooks.json', 'loose'])
      assert.ok(
        s.diagnostics.some((d) => d.itemId === byName(s, other).id),
        `${other} has a finding of its own`,
      );
    const r = readBundleSource(pk, LINUX_HOST);
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.deepEqual(lines(r.source.diagnostics), ownLines(s, pk));
    const inv = readInvalidBundle(pk, [], LINUX_HOST);
    assert.ok(inv);
    assert.deepEqual(lines(inv.diagnostics), ownLines(s, pk));
  });

  it('reads a unit as Rivumi loads it without the opt-in: no "runs unreviewed" warning, a plugin hook defect stays a warning', () => {
    // Two workspaces: a hook defect fails the whole hook load, and then no hook runs at all.
    f.write('ws/.rivumi/plugins/pk.json', '{"name":"pk","hooks":{"pre_tool_use":[{"command":["true"]}]}}');
    f.write('ws2/.rivumi/plugins/hk.json', '{"name":"hk","hooks":{"pre_tool_use":[{"command":[]}]}}');
    const workspaces = [f.path('ws'), f.path('ws2')];
    const s = index(workspaces);
    const opted = index(workspaces, { rivumiHooksEnv: '1' });
    assert.ok(opted.diagnostics.some((d) => d.code === 'rivumi.hooks.opted-in-untrusted'));
    for (const name of ['pk', 'hk']) {
      const r = readBundleSource(byName(opted, name), LINUX_HOST);
      assert.ok(r.ok, r.ok ? '' : r.message);
      assert.deepEqual(lines(r.source.diagnostics), ownLines(s, byName(s, name)), name);
    }
    const hk = readBundleSource(byName(s, 'hk'), LINUX_HOST);
    assert.ok(hk.ok);
    assert.deepEqual(
      hk.source.diagnostics.map((d) => [d.code, d.severity]),
      [['rivumi.hooks.invalid', 'warning']],
    );
  });

  it('reads the unit as an index of a trusted workspace with nothing trusted: loaded, not reviewed', () => {
    f.write('ws/.rivumi/plugins/pk.json', '{"name":"pk"}');
    const item = byName(index([f.path('ws')]), 'pk');
    const r = readBundleSource(item, LINUX_HOST);
    assert.ok(r.ok);
    assert.deepEqual([r.source.item.decision, r.source.item.reasons], [item.decision, item.reasons]);
    assert.ok(!r.source.item.reasons.includes('workspace_untrusted'));
  });

  it('`hash` takes a manifest file only: a directory named like one is taken for a bundle directory, JSON in another .rivumi folder is no bundle', () => {
    f.write('ws/.rivumi/plugins/pk.json', '{"name":"pk"}');
    for (const dir of [f.mkdir('ws/.rivumi/plugins/dir.json'), f.mkdir('ws/.rivumi/hooks.json')])
      assert.deepEqual(hashTarget(dir), {
        ok: false,
        message: `${dir} holds no plugin.json, kimi.plugin.json, plugin.toml or .claude-plugin/plugin.json`,
        diagnostics: [],
      });
    const json = f.write('ws/.rivumi/skills/pk.json', '{"name":"pk"}');
    assert.deepEqual(hashTarget(json), { ok: false, message: NOT_A_BUNDLE(json), diagnostics: [] });
  });

  it('`hash` refuses a manifest Rivumi never reads: the 17th plugin, and one in a plugins folder that is a link', () => {
    for (let i = 1; i <= 17; i++) f.write(`ws/.rivumi/plugins/p${String(i).padStart(2, '0')}.json`, `{"name":"p${i}"}`);
    const last = f.path('ws/.rivumi/plugins/p17.json');
    const beyond = hashTarget(last);
    assert.ok(!beyond.ok);
    assert.equal(beyond.message, `${last} could not be hashed: not a loadable Rivumi plugin`);
    assert.ok(beyond.diagnostics.some((d) => d.code === 'rivumi.plugin.not-loaded' && d.file === last));
    assert.ok(hashTarget(f.path('ws/.rivumi/plugins/p16.json')).ok, 'the 16th is read');

    f.write('real/pk.json', '{"name":"pk"}');
    f.symlink(f.path('real'), 'ws2/.rivumi/plugins');
    const linked = f.path('ws2/.rivumi/plugins/pk.json');
    const r = hashTarget(linked);
    assert.ok(!r.ok);
    assert.equal(r.message, `${linked} could not be hashed: not a loadable Rivumi plugin`);
    assert.ok(r.diagnostics.some((d) => d.code === 'rivumi.plugins.path'));
  });
});

describe('Eva trust-unit reader: parts, missing covered files, and the project `hash` finds', () => {
  let f: EvaFixture;
  beforeEach(() => (f = new EvaFixture().p0()));
  afterEach(() => f.remove());
  const evaIndex = () => index([f.ws], { evaHome: f.home });
  const unit = (s: Snapshot, rel: string) => {
    const found = s.items.find((i) => i.id === f.id(rel));
    assert.ok(found, s.items.map((i) => i.id).join(', '));
    return found;
  };
  const BINDING =
    'id: rs\nname: Review binding\nversion: 1.0.0\nenabled: true\nkind: skill\ncapability: workflow.review\ndefault_provider: review-skill\n';

  it("reads a skill adapter's bindings as its parts, and `hash` of a binding's manifest is no bundle", () => {
    f.adapter(A0);
    const binding = f.write('ws/config/capabilities/rs.yaml', BINDING);
    const s = evaIndex();
    const adapter = unit(s, 'adapters/review.yaml');
    const bindingItem = unit(s, 'capabilities/rs.yaml');
    assert.equal(bindingItem.parent, adapter.id);
    const r = readBundleSource(adapter, LINUX_HOST);
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.deepEqual(
      r.source.parts.map((i) => i.id),
      [bindingItem.id],
    );
    assert.deepEqual(
      readInvalidBundle(adapter, [], LINUX_HOST)?.parts.map((i) => i.id),
      [bindingItem.id],
    );
    assert.deepEqual(hashTarget(binding), { ok: false, message: NOT_A_BUNDLE(binding), diagnostics: [] });
  });

  it('reads a skill whose skill.path does not exist here: the missing file is recorded by the hash, never read', () => {
    f.adapter(A0.replace('  id: review\n', '  id: review\n  path: config/skills/review/notes.md\n'));
    const s = evaIndex();
    const item = unit(s, 'adapters/review.yaml');
    assert.ok(item.contentHash, JSON.stringify(item.detail.notCovered));
    const r = readBundleSource(item, LINUX_HOST);
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.deepEqual(
      r.source.files.map((x) => x.path),
      ['config/adapters/review.yaml'],
    );
    assert.equal(r.source.root, f.ws);
    // Its appearance changes the content hash (eva.md §6.2), so the review would differ.
    f.write('ws/config/skills/review/notes.md', 'now here\n');
    assert.notEqual(unit(evaIndex(), 'adapters/review.yaml').contentHash, item.contentHash);
  });

  it('refuses a unit whose manifest no longer reads, by that reason; its invalid read has no key', () => {
    f.l0();
    const lint = unit(evaIndex(), 'capabilities/lint.yaml');
    f.write('ws/config/capabilities/lint.yaml', Buffer.concat([Buffer.from(L0), Buffer.from([0xff])]));
    const now = unit(evaIndex(), 'capabilities/lint.yaml');
    assert.equal(now.contentHash, null);
    assert.deepEqual(readBundleSource(lint, LINUX_HOST), {
      ok: false,
      message: 'lint-skill cannot be hashed: its manifest cannot be read',
    });
    const manifest = f.path('ws/config/capabilities/lint.yaml');
    const hashed = hashTarget(manifest);
    assert.ok(!hashed.ok);
    assert.equal(hashed.message, `${manifest} could not be hashed: its manifest cannot be read`);
    const inv = readInvalidBundle(lint, [], LINUX_HOST);
    assert.ok(inv);
    assert.deepEqual(
      [inv.bundleKey, inv.contentHash, inv.files.map((x) => x.path)],
      ['', null, ['config/capabilities/lint.yaml']],
    );
  });

  it('reads nothing once the folder is no Eva project any more (config/eva.yaml gone)', () => {
    f.adapter(A0);
    const item = unit(evaIndex(), 'adapters/review.yaml');
    fs.rmSync(f.path('ws/config/eva.yaml'));
    assert.deepEqual(readBundleSource(item, LINUX_HOST), {
      ok: false,
      message: 'review-skill can no longer be read as an Eva skill',
    });
    assert.equal(readInvalidBundle(item, [], LINUX_HOST), undefined);
    assert.deepEqual(hashTarget(item.path), { ok: false, message: NOT_A_BUNDLE(item.path), diagnostics: [] });
  });

  it('`hash` reads no project whose config/ leads outside the folder (a link): its manifests are no bundle', () => {
    const manifest = f.adapter(A0);
    fs.renameSync(f.path('ws/config'), f.path('elsewhere'));
    f.symlink(f.path('elsewhere'), 'ws/config');
    assert.deepEqual(hashTarget(manifest), { ok: false, message: NOT_A_BUNDLE(manifest), diagnostics: [] });
  });

  it('`hash` finds the nearest Eva project above the manifest, also from a nested adapter folder', () => {
    const nested = f.adapter(A0, 'team/review.yaml');
    const item = unit(evaIndex(), 'adapters/team/review.yaml');
    const r = hashTarget(nested);
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.reviewToken, item.reviewToken);
    // A folder nearer the manifest that is an Eva project of its own decides, and it does not list this manifest.
    f.write('ws/config/adapters/team/config/eva.yaml', fs.readFileSync(f.path('ws/config/eva.yaml')));
    assert.deepEqual(hashTarget(nested), { ok: false, message: NOT_A_BUNDLE(nested), diagnostics: [] });
  });
});
