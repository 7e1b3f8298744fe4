import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { run } from '../../src/cli/main';
import { Indexer } from '../../src/core/index/indexer';
import { selectItem } from '../../src/cli/selector';
import { displayText } from '../../src/core/text/displayText';
import { Fixture, writeW, writeD, byName, top, LINUX_HOST } from './helpers/fixture';
import { A0, evaItemId, writeEvaProject } from './helpers/evaFixture';
import type { Snapshot } from '../../src/core/index/snapshot';

const json = (v: unknown) => JSON.stringify(v);

/** Every id unique; every parent, shadowedBy and diagnostic itemId names an item; each item selectable by its id. */
function assertIdsHold(s: Snapshot): void {
  const ids = s.items.map((i) => i.id);
  const seen = new Set<string>();
  const repeated = ids.filter((id) => (seen.has(id) ? true : (seen.add(id), false)));
  assert.deepEqual(repeated, [], 'ids are unique');
  for (const i of s.items) {
    if (i.parent !== null) assert.ok(seen.has(i.parent), `parent of ${i.id} exists`);
    if (i.shadowedBy !== null) assert.ok(seen.has(i.shadowedBy), `shadowedBy of ${i.id} exists`);
    const selected = selectItem(s, i.id);
    assert.ok(
      selected.ok && selected.item === i,
      `${i.id} selects its item: ${selected.ok ? selected.item.id : selected.message}`,
    );
  }
  for (const d of s.diagnostics)
    if (d.itemId !== null) assert.ok(seen.has(d.itemId), `itemId ${d.itemId} of ${d.code} exists`);
}

/** One Codewhale bundle, the user's, and one duplicate-root warning naming it: a root discovered twice (codewhale.md §2.6). */
function oneUserBundleWarnedTwice(s: Snapshot) {
  const items = top(s).filter((i) => i.system === 'codewhale');
  assert.equal(items.length, 1);
  assert.equal(items[0]?.scope, 'user');
  const dup = s.diagnostics.filter((d) => d.code === 'codewhale.duplicate-root');
  assert.equal(dup.length, 1);
  assert.equal(dup[0]?.itemId, items[0]?.id);
  assertIdsHold(s);
  return items[0];
}

describe('item ids: unique and stable (spec/cli.md "id": stable unique id)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const snap = (workspaces = [f.path('ws')], codewhaleHome: string | null = null) =>
    new Indexer({ workspaces, codewhaleHome, host: LINUX_HOST }).indexAll();

  it('keeps `<bundle id>#skill/<name>` for an ordinary skill', () => {
    writeW(f);
    const s = snap();
    assert.equal(byName(s, 'example-plugin:example').id, `${byName(s, 'example-plugin').id}#skill/example`);
    assert.match(byName(s, 'example-plugin').id, /^workspace\/[0-9a-f]{12}\/example-plugin$/);
  });

  it('gives skills whose names normalise alike their own ids, by their paths, each selectable', () => {
    writeW(f);
    for (const [dir, name] of [
      ['one', 'a b'],
      ['two', 'A-B'],
      ['three', 'a_b'],
    ])
      f.write(`ws/.codewhale/plugins/example-plugin/skills/${dir}/SKILL.md`, `---\nname: ${name}\n---\nbody\n`);
    const s = snap();
    const bundle = byName(s, 'example-plugin');
    const alike = s.items.filter((i) => i.kind === 'skill' && i.name === 'a-b').map((i) => i.id);
    assert.deepEqual(
      alike.sort(),
      ['one', 'three', 'two'].map((d) => `${bundle.id}#skill/a-b@skills/${d}/SKILL.md`).sort(),
    );
    assert.equal(
      byName(s, 'example-plugin:example').id,
      `${bundle.id}#skill/example`,
      'the unique name keeps its plain id',
    );
    assertIdsHold(s);
  });

  it('percent-encodes the bytes of such a path, so the id spells a name that is not UTF-8 exactly', () => {
    writeW(f);
    f.write('ws/.codewhale/plugins/example-plugin/skills/a b/SKILL.md', '---\nname: twin\n---\nbody\n');
    const raw = Buffer.concat([
      Buffer.from(f.path('ws/.codewhale/plugins/example-plugin/skills/a')),
      Buffer.from([0xff]),
    ]);
    fs.mkdirSync(raw);
    fs.writeFileSync(Buffer.concat([raw, Buffer.from('/SKILL.md')]), '---\nname: twin\n---\nbody\n');
    const s = snap();
    const ids = s.items.filter((i) => i.name === 'twin').map((i) => i.id.slice(i.id.indexOf('#')));
    assert.deepEqual(ids.sort(), ['#skill/twin@skills/a%20b/SKILL.md', '#skill/twin@skills/a%FF/SKILL.md']);
    assertIdsHold(s);
  });

  it('selects a Rivumi item whose file name is not UTF-8 by its id as the CLI prints it', async () => {
    f.mkdir('ws/.rivumi/plugins');
    for (const byte of [0xfe, 0xff])
      fs.writeFileSync(
        Buffer.concat([Buffer.from(f.path('ws/.rivumi/plugins/p')), Buffer.from([byte]), Buffer.from('.json')]),
        json({ name: 'pp' }),
      );
    const cli = async (args: string[]) => {
      let out = '';
      let err = '';
      const code = await run([...args, '--workspace', f.path('ws'), '--no-user'], {
        out: (t) => (out += t),
        err: (t) => (err += t),
        env: { SKILLGATE_STATE_DIR: f.path('state') },
        cwd: f.path('ws'),
      });
      return { code, out, err };
    };
    const ambiguous = await cli(['show', 'pp']);
    assert.equal(ambiguous.code, 2, 'a usage error');
    const printed = ambiguous.err.match(/use one of these ids: (.*)$/m)?.[1]?.split(', ') ?? [];
    assert.deepEqual(
      printed.map((id) => id.replace(/^.*\/p/, 'p')),
      ['p\\u{dcfe}.json', 'p\\u{dcff}.json'],
      ambiguous.err,
    );
    for (const id of printed) {
      const shown = await cli(['show', id, '--json']);
      assert.equal(shown.code, 0, `show ${id}: ${shown.err}`);
      const item = (JSON.parse(shown.out) as { items: { path: string }[] }).items[0];
      assert.ok(id.endsWith(`:${displayText(item?.path ?? '-')}`), `${id} shows ${item?.path ?? 'nothing'}`);
    }
  });

  it("refuses an id that is both one item's own and another's as printed: a planted name does not take the selection", async () => {
    f.mkdir('ws/.rivumi/plugins');
    const odd = Buffer.concat([Buffer.from(f.path('ws/.rivumi/plugins/p')), Buffer.from([0xff]), Buffer.from('.json')]);
    fs.writeFileSync(odd, json({ name: 'odd' }));
    // Named as the CLI prints the other: a backslash, `u`, braces and hex digits, all UTF-8.
    f.write('ws/.rivumi/plugins/p\\u{dcff}.json', json({ name: 'planted' }));
    const s = snap();
    const odd1 = s.items.find((i) => i.name === 'odd');
    const planted = s.items.find((i) => i.name === 'planted');
    assert.ok(odd1 && planted);
    assert.equal(displayText(odd1.id), planted.id, 'the planted id reads as the other one printed');
    const selected = selectItem(s, planted.id);
    assert.equal(selected.ok, false, 'neither is taken');
    if (!selected.ok) {
      assert.match(selected.message, /ambiguous/);
      assert.ok(selected.message.includes('id of planted and how the id of odd prints'), selected.message);
    }
    assert.equal(selectItem(s, 'planted').ok, true, 'each is still selected by its name');
  });

  it('indexes a workspace folder passed twice, directly and through a symbolic link, once, under the first spelling', () => {
    writeW(f);
    f.write('ws/.rivumi/skills/review.md', '---\nname: reviewer\n---\nReview.\n');
    f.symlink(f.path('ws'), 'link');
    const once = snap();
    const twice = snap([f.path('ws'), f.path('link')]);
    assert.deepEqual(twice.workspaces, [f.path('ws')]);
    assert.deepEqual(
      twice.items.map((i) => i.id),
      once.items.map((i) => i.id),
    );
    assertIdsHold(twice);
    const sameTwice = snap([f.path('ws'), f.path('ws/')]);
    assert.deepEqual(
      sameTwice.items.map((i) => i.id),
      once.items.map((i) => i.id),
      'the same folder spelled twice',
    );
    const linkFirst = snap([f.path('link'), f.path('ws')]);
    assert.deepEqual(linkFirst.workspaces, [f.path('link')], 'the first spelling given is kept');
    assertIdsHold(linkFirst);
    // Every agent's ids are the folder's, whichever spelling opened it: Rivumi's too, as Codewhale's and Eva's.
    assert.deepEqual(
      linkFirst.items.map((i) => i.id),
      once.items.map((i) => i.id),
      'the same ids through the link',
    );
  });

  it('gives Eva projects in two folders of one base name their own ids: each selected and trusted by its id, each diagnostic tied to its folder', async () => {
    writeEvaProject(f, 'a/e1');
    // A comment makes b's review-skill another bundle (another token) under the same Eva id and path.
    writeEvaProject(f, 'b/e1', `# b's copy\n${A0}`);
    f.write('home/.codex/skills/foo/SKILL.md', '---\nname: foo\ndescription: test\n---\nbody\n');
    const [a, b] = [f.path('a/e1'), f.path('b/e1')];
    const s = new Indexer({
      workspaces: [a, b],
      codewhaleHome: null,
      evaHome: f.path('home'),
      host: LINUX_HOST,
    }).indexAll();
    assertIdsHold(s);
    const rels = ['config/adapters/review.yaml', 'config/capabilities/lint.yaml'];
    const areas = ['adapter', 'capability'] as const;
    assert.deepEqual(
      s.items.filter((i) => i.system === 'eva').map((i) => [i.id, i.workspace]),
      [
        ...rels.map((rel, n) => [evaItemId(a, areas[n] ?? 'adapter', rel), a]),
        ...rels.map((rel, n) => [evaItemId(b, areas[n] ?? 'adapter', rel), b]),
        ['eva:user:codex:foo', null],
      ],
    );
    const evaDiagnostics = s.diagnostics.filter((d) => d.code.startsWith('eva.') && d.itemId !== null);
    assert.ok(
      evaDiagnostics.some((d) => d.file.startsWith(a + path.sep)) &&
        evaDiagnostics.some((d) => d.file.startsWith(b + path.sep)),
      'both projects have diagnostics on their items',
    );

    const cli = async (args: string[]) => {
      let out = '';
      let err = '';
      const code = await run([...args, '--workspace', a, '--workspace', b, '--eva-home', f.path('home')], {
        out: (t) => (out += t),
        err: (t) => (err += t),
        env: { SKILLGATE_STATE_DIR: f.path('state') },
        cwd: f.root,
      });
      return { code, out, err };
    };
    // spec/cli.md: a diagnostic's file is relative to its own workspace folder, as an item's path is.
    const validated = JSON.parse((await cli(['validate', '--json'])).out) as {
      diagnostics: { workspace: string | null; file: string; itemId: string | null; code: string }[];
    };
    // User items' diagnostics belong to no folder and keep their absolute file.
    const folderOf = (file: string) => [a, b].find((ws) => file.startsWith(ws + path.sep)) ?? null;
    const shown = (file: string) => {
      const ws = folderOf(file);
      return ws === null ? file : path.relative(ws, file);
    };
    assert.deepEqual(
      validated.diagnostics
        .filter((d) => d.code.startsWith('eva.') && d.itemId !== null)
        .map((d) => [d.code, d.itemId, d.workspace, d.file])
        .sort(),
      evaDiagnostics.map((d) => [d.code, d.itemId, folderOf(d.file), shown(d.file)]).sort(),
    );
    const sarif = JSON.parse((await cli(['validate', '--format', 'sarif'])).out);
    // The same relative paths in both folders: only the base tells a's findings from b's.
    const baseOf = (file: string) => ({ [a]: '%SRCROOT%', [b]: '%SRCROOT2%' })[folderOf(file) ?? ''];
    type Location = { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string } } };
    assert.deepEqual(
      sarif.runs[0].results
        .filter((r: { ruleId: string }) => r.ruleId.startsWith('eva.'))
        .map((r: { ruleId: string; locations: Location[] }) => {
          const at = r.locations[0]?.physicalLocation.artifactLocation;
          return [r.ruleId, at?.uriBaseId ?? null, at?.uri];
        })
        .sort(),
      s.diagnostics
        .filter((d) => d.code.startsWith('eva.'))
        .map((d) => [d.code, baseOf(d.file) ?? null, baseOf(d.file) ? shown(d.file) : `file://${d.file}`])
        .sort(),
    );

    // The name is ambiguous between the two bundles, and each id it offers is b's or a's own.
    const ambiguous = await cli(['trust', 'review-skill', 'x']);
    assert.equal(ambiguous.code, 2, ambiguous.err);
    const offered = ambiguous.err.match(/use one of these ids: (.*)$/m)?.[1]?.split(', ') ?? [];
    const [aReview, bReview] = [a, b].map((ws) => evaItemId(ws, 'adapter', 'config/adapters/review.yaml'));
    assert.deepEqual(offered, [aReview, bReview]);
    const bItem = s.items.find((i) => i.id === bReview);
    assert.ok(bItem?.reviewToken);
    assert.notEqual(bItem.reviewToken, s.items.find((i) => i.id === aReview)?.reviewToken);
    const trusted = await cli(['trust', bReview ?? '', bItem.reviewToken]);
    assert.equal(trusted.code, 0, trusted.err);
    const listed = JSON.parse((await cli(['list', '--json'])).out) as { items: { id: string; trust: string | null }[] };
    assert.deepEqual(
      [aReview, bReview].map((id) => listed.items.find((i) => i.id === id)?.trust),
      ['not-reviewed', 'trusted'],
    );
  });

  it('re-reads a bundle when the change is reported under the dropped spelling of its folder', () => {
    writeW(f);
    f.symlink(f.path('ws'), 'link');
    const ix = new Indexer({ workspaces: [f.path('ws'), f.path('link')], codewhaleHome: null, host: LINUX_HOST });
    const first = ix.indexAll();
    f.write('ws/.codewhale/plugins/example-plugin/skills/example/SKILL.md', '---\nname: example\n---\nchanged\n');
    const next = ix.refresh([f.path('link/.codewhale/plugins/example-plugin/skills/example/SKILL.md')]);
    assert.notEqual(byName(next, 'example-plugin').contentHash, byName(first, 'example-plugin').contentHash);
  });

  it('names the item that holds a root in the duplicate-root warning (a workspace opened at the home directory)', () => {
    writeD(f, '', 'ws/.codewhale/plugins/demo');
    // The home spelled through a link, so the two roots differ as strings and meet as canonical paths.
    f.symlink(f.path('ws/.codewhale'), 'home');
    oneUserBundleWarnedTwice(snap([f.path('ws')], f.path('home')));
  });

  it('drops the workspace discovery of an invalid bundle in a workspace opened at the home, as of a valid one: its error once', () => {
    f.write(
      'ws/.codewhale/plugins/bad/plugin.toml',
      'schema_version = 1\n[plugin]\nname = "Bad_Name"\nversion = "1.0.0"\n',
    );
    f.symlink(f.path('ws/.codewhale'), 'home');
    const s = snap([f.path('ws')], f.path('home'));
    const item = oneUserBundleWarnedTwice(s);
    assert.equal(item?.decision, 'rejected');
    assert.deepEqual(
      s.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.code, d.itemId]),
      [['codewhale.manifest.name', item?.id]],
    );
  });

  it('warns of the duplicate discovery when the workspace is the home directory itself, spelled alike (codewhale.md §2.6)', () => {
    // The default home under a workspace opened at the home: both roots are `<home>/.codewhale/plugins`, as strings too.
    writeD(f, '', 'home/.codewhale/plugins/demo');
    const indexer = new Indexer({
      workspaces: [f.path('home')],
      codewhaleHome: f.path('home/.codewhale'),
      host: LINUX_HOST,
    });
    const before = oneUserBundleWarnedTwice(indexer.indexAll());
    // An edit in the shared root re-reads it for both scopes: still one item and one warning, at the new bytes.
    f.write('home/.codewhale/plugins/demo/notes.txt', 'new\n');
    const after = oneUserBundleWarnedTwice(indexer.refresh([f.path('home/.codewhale/plugins/demo/notes.txt')]));
    assert.notEqual(after?.contentHash, before?.contentHash);
  });

  it("takes a workspace opened at the home, whose `.codewhale` links to the user's dotfiles, as Codewhale's home, not a linked root", () => {
    writeD(f, '', 'dotfiles/codewhale/plugins/demo');
    f.mkdir('home');
    f.symlink(f.path('dotfiles/codewhale'), 'home/.codewhale');
    const s = snap([f.path('home')], f.path('home/.codewhale'));
    const items = top(s).filter((i) => i.system === 'codewhale');
    assert.deepEqual(
      items.map((i) => i.scope),
      ['user'],
    );
    assert.deepEqual(
      s.diagnostics.map((d) => d.code),
      ['codewhale.duplicate-root'],
    );
    // A repository's own linked `.codewhale`, to anywhere else, is a workspace root as Codewhale
    // reads it: its `demo` is discovered, and shadowed by the user's.
    writeD(f, '', 'elsewhere/plugins/other');
    f.mkdir('ws');
    f.symlink(f.path('elsewhere'), 'ws/.codewhale');
    const linked = snap([f.path('ws')], f.path('home/.codewhale'));
    assert.deepEqual(
      top(linked)
        .filter((i) => i.system === 'codewhale')
        .map((i) => [i.scope, i.decision]),
      [
        ['user', 'disabled'],
        ['workspace', 'shadowed'],
      ],
    );
    assert.deepEqual(
      linked.diagnostics.map((d) => d.code),
      ['codewhale.name-conflict'],
    );
  });

  it('hold for a hostile workspace: every id unique, every reference an item, each item shown and reviewed by its id', async () => {
    writeW(f);
    for (const [dir, name] of [
      ['one', 'a b'],
      ['two', 'A-B'],
      ['three', 'a_b'],
    ])
      f.write(`ws/.codewhale/plugins/example-plugin/skills/${dir}/SKILL.md`, `---\nname: ${name}\n---\nbody\n`);
    writeD(f, '', 'ws/.codewhale/plugins/！');
    writeD(f, '', 'ws/.codewhale/plugins/😀');
    writeD(f, '[mcp_servers.srv]\ncommand = "node"\nurl = "https://x.example"\n', 'ws/.codewhale/plugins/broken');
    const rawDir = Buffer.concat([Buffer.from(f.path('ws/.codewhale/plugins/bad')), Buffer.from([0xff])]);
    fs.mkdirSync(rawDir);
    fs.writeFileSync(Buffer.concat([rawDir, Buffer.from('/plugin.toml')]), 'schema_version = 1\n[plugin\n');
    const rawDir2 = Buffer.concat([Buffer.from(f.path('ws/.codewhale/plugins/bad')), Buffer.from([0xfe])]);
    fs.mkdirSync(rawDir2);
    fs.writeFileSync(Buffer.concat([rawDir2, Buffer.from('/plugin.toml')]), 'schema_version = 1\n[plugin\n');
    writeD(f, '', 'home/plugins/demo');
    f.write('ws/.rivumi/skills/review.md', '---\nname: reviewer\n---\nReview.\n');
    f.write('ws/.rivumi/skills/again.md', '---\nname: reviewer\n---\nReview again.\n');
    f.write(
      'ws/.rivumi/hooks.json',
      json({ pre_tool_use: [{ command: ['python', 'hook.py'] }, { command: ['python', 'hook.py'] }] }),
    );
    f.write('ws/.rivumi/plugins/review.md', '---\nname: review\n---\nCheck.');
    f.write(
      'ws/.rivumi/plugins/local.json',
      json({ name: 'local', skills: [{ path: 'review.md' }, { path: 'review.md' }] }),
    );
    f.write('ws/.rivumi/plugins/other.json', json({ name: 'local', skills: [{ path: 'review.md' }] }));
    f.symlink(f.path('ws'), 'link');
    const workspaces = [f.path('ws'), f.path('link')];
    const s = snap(workspaces, f.path('home'));
    assertIdsHold(s);
    assert.ok(s.items.length > 15, `a rich fixture (${s.items.length} items)`);

    const env = { SKILLGATE_STATE_DIR: f.path('state') };
    const cli = async (args: string[]) => {
      let out = '';
      let err = '';
      const code = await run(
        [...args, '--workspace', f.path('ws'), '--workspace', f.path('link'), '--codewhale-home', f.path('home')],
        { out: (t) => (out += t), err: (t) => (err += t), env, cwd: f.path('ws') },
      );
      return { code, out, err };
    };
    const listed = JSON.parse((await cli(['list', '--json'])).out) as { items: { id: string; trust: string | null }[] };
    assert.deepEqual(
      listed.items.map((i) => i.id),
      s.items.map((i) => i.id),
    );
    for (const item of listed.items) {
      const shown = await cli(['show', item.id, '--json']);
      assert.equal(shown.code, 0, `show ${item.id}: ${shown.err}`);
      assert.equal(JSON.parse(shown.out).items[0].id, item.id);
      if (item.trust !== null) {
        const reviewed = await cli(['review', item.id, '--json']);
        assert.doesNotMatch(reviewed.err, /ambiguous|No item matches|internal error/, `review ${item.id}`);
      }
    }
  });
});
