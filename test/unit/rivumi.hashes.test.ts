import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { Fixture } from './helpers/fixture';
import { loadRivumiProject } from '../../src/core/systems/rivumi/load';
import { RIVUMI_HOOKS_DOMAIN, RIVUMI_PLUGIN_DOMAIN } from '../../src/core/systems/rivumi/hashes';
import { rivumiCapabilityHash } from '../../src/core/systems/rivumi/capabilityHash';
import { fileRecord, newHash, u64le } from '../../src/core/hashing/framing';
import { MAX_HASHED_BYTES } from '../../src/core/hashing/treeRead';
import { fsPatcher } from './helpers/fsPatch';
import { permissionDenied } from './helpers/deniedDirectory';

const json = (v: unknown) => JSON.stringify(v, null, 2);

/**
 * Skillgate's Rivumi hashes (trust.md "Hashes"): the content hash is the domain, the
 * manifest length-prefixed, then one record per covered file in byte order of its
 * workspace-relative path; the capability hash is over the inventory (skill count, hook
 * count, the sets of events, commands and tool filters). Each expected value here is
 * computed from that definition with the shared framing, not read back from the code.
 */
describe('Rivumi hashes: what each trust unit covers, framed as trust.md defines', () => {
  const fsPatch = fsPatcher();
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const expectedContent = (domain: string, manifest: Buffer, files: [string, boolean][]) => {
    const h = newHash();
    h.update(domain);
    h.update(u64le(manifest.length));
    h.update(manifest);
    for (const [rel, exec] of files)
      fileRecord(h, rel, exec, fs.readFileSync(f.path(`ws/${rel}`)), 'workspace-relative-file');
    return h.digest('hex');
  };

  it("hashes a plugin's manifest, its skill files and its hook scripts in byte order", () => {
    const manifest = Buffer.from(
      json({
        skills: [{ path: 'b.md' }, { path: 'B.md' }],
        hooks: { pre_tool_use: [{ command: ['python', 'tools/z.py', 'tools/a.py'], tools: ['read_file', 'x'] }] },
      }),
    );
    f.write('ws/.rivumi/plugins/pk.json', manifest);
    f.write('ws/.rivumi/plugins/b.md', 'lower');
    f.write('ws/.rivumi/plugins/B.md', 'upper');
    f.write('ws/tools/z.py', 'z', 0o755);
    f.write('ws/tools/a.py', 'a');
    const h = loadRivumiProject(f.path('ws')).plugins[0]?.hashes;
    assert.equal(
      h?.contentHash,
      expectedContent(RIVUMI_PLUGIN_DOMAIN, manifest, [
        ['.rivumi/plugins/B.md', false],
        ['.rivumi/plugins/b.md', false],
        ['tools/a.py', false],
        ['tools/z.py', true],
      ]),
    );
    assert.equal(RIVUMI_PLUGIN_DOMAIN, 'skillgate-rivumi-plugin-content-v1\0');
    assert.deepEqual(
      h?.files.map((x) => [x.path, x.size, x.executable, x.sha256]),
      [
        ['.rivumi/plugins/pk.json', manifest.length, false, createHash('sha256').update(manifest).digest('hex')],
        ['.rivumi/plugins/B.md', 5, false, createHash('sha256').update('upper').digest('hex')],
        ['.rivumi/plugins/b.md', 5, false, createHash('sha256').update('lower').digest('hex')],
        ['tools/a.py', 1, false, createHash('sha256').update('a').digest('hex')],
        ['tools/z.py', 1, true, createHash('sha256').update('z').digest('hex')],
      ],
    );
    assert.deepEqual(h?.capabilities, {
      'hook-commands': 'python',
      'hook-events': 'pre_tool_use',
      hooks: '1',
      skills: '2',
      tools: 'read_file\nx',
    });
    assert.equal(h?.capabilityHash, rivumiCapabilityHash(new Map(Object.entries(h?.capabilities ?? {}))));
  });

  it('hashes hooks.json under its own domain, each named file once', () => {
    const manifest = Buffer.from(
      json({
        pre_tool_use: [{ command: ['sh', 'run.sh'] }, { command: ['bash', 'run.sh'], tools: ['t'] }],
        post_compact: [{ command: ['sh', 'run.sh'] }],
      }),
    );
    f.write('ws/.rivumi/hooks.json', manifest);
    f.write('ws/run.sh', 'echo');
    const h = loadRivumiProject(f.path('ws')).hooksFile?.hashes;
    assert.equal(h?.contentHash, expectedContent(RIVUMI_HOOKS_DOMAIN, manifest, [['run.sh', false]]));
    assert.equal(RIVUMI_HOOKS_DOMAIN, 'skillgate-rivumi-hooks-content-v1\0');
    assert.deepEqual(
      h?.files.map((x) => x.path),
      ['.rivumi/hooks.json', 'run.sh'],
    );
    assert.deepEqual(h?.capabilities, {
      'hook-commands': 'bash\nsh',
      'hook-events': 'post_compact\npre_tool_use',
      hooks: '3',
      skills: '0',
      tools: '*\nt',
    });
  });

  it('lists hooks.json once when a hook names it', () => {
    f.write('ws/.rivumi/hooks.json', json({ pre_compact: [{ command: ['cat', '.rivumi/hooks.json'] }] }));
    assert.deepEqual(
      loadRivumiProject(f.path('ws')).hooksFile?.hashes?.files.map((x) => x.path),
      ['.rivumi/hooks.json'],
    );
  });

  it('gives the same bytes different content hashes as hooks.json and as a plugin manifest', () => {
    f.write('ws/.rivumi/hooks.json', '{}');
    f.write('ws/.rivumi/plugins/x.json', '{}');
    const p = loadRivumiProject(f.path('ws'));
    assert.notEqual(p.hooksFile?.hashes?.contentHash, p.plugins[0]?.hashes?.contentHash);
    assert.equal(p.hooksFile?.hashes?.capabilityHash, p.plugins[0]?.hashes?.capabilityHash);
  });

  it('changes the content hash, not the capability hash, when a named file appears, changes or turns executable', () => {
    f.write('ws/.rivumi/hooks.json', json({ pre_compact: [{ command: ['sh', 'later.sh'] }] }));
    const hashes = () => loadRivumiProject(f.path('ws')).hooksFile?.hashes;
    const before = hashes();
    f.write('ws/later.sh', 'echo 1');
    const created = hashes();
    f.write('ws/later.sh', 'echo 2');
    const edited = hashes();
    fs.chmodSync(f.path('ws/later.sh'), 0o755);
    const exec = hashes();
    const contents = [before, created, edited, exec].map((h) => h?.contentHash);
    assert.equal(new Set(contents).size, 4);
    assert.equal(new Set([before, created, edited, exec].map((h) => h?.capabilityHash)).size, 1);
    assert.deepEqual(
      before?.files.map((x) => x.path),
      ['.rivumi/hooks.json'],
    );
  });

  it('changes the capability hash with argv[0], the tools, the events and the counts', () => {
    const capability = (hooks: unknown, skills: number) => {
      f.remove();
      f = new Fixture();
      for (let i = 0; i < skills; i++) f.write(`ws/.rivumi/plugins/s${i}.md`, 'body');
      f.write(
        'ws/.rivumi/plugins/pk.json',
        json({ skills: Array.from({ length: skills }, (_, i) => ({ path: `s${i}.md` })), hooks }),
      );
      return loadRivumiProject(f.path('ws')).plugins[0]?.hashes?.capabilityHash;
    };
    const base = { pre_compact: [{ command: ['sh', 'x'] }] };
    const all = [
      capability(base, 1),
      capability(base, 2),
      capability({ pre_compact: [{ command: ['bash', 'x'] }] }, 1),
      capability({ pre_compact: [{ command: ['sh', 'x'], tools: ['t'] }] }, 1),
      capability({ post_compact: [{ command: ['sh', 'x'] }] }, 1),
      capability({ pre_compact: [{ command: ['sh', 'x'] }, { command: ['sh', 'y'] }] }, 1),
    ];
    assert.equal(new Set(all).size, all.length);
    assert.equal(capability({ pre_compact: [{ command: ['sh', 'other'] }] }, 1), all[0]);
  });

  it('binds an argument trust cannot cover into the content hash, and lists it', () => {
    f.write('ws/.rivumi/hooks.json', json({ pre_compact: [{ command: ['sh', '../outside.sh'] }] }));
    const outside = loadRivumiProject(f.path('ws')).hooksFile?.hashes;
    assert.deepEqual(
      outside?.notCovered.map((n) => n.message),
      ["hook argument '../outside.sh' names '../outside.sh' outside the workspace: it cannot be covered by trust"],
    );
    const plain = Buffer.from(json({ pre_compact: [{ command: ['sh', '../outside.sh'] }] }));
    assert.notEqual(outside?.contentHash, expectedContent(RIVUMI_HOOKS_DOMAIN, plain, []));
  });

  // hashes.ts `rivumiContentHash`: a covered file gone since its walk is `missing\0 ‖ u64(len) ‖ rel` (its
  // appearance changes the hash); one Skillgate cannot read is `unreadable\0 ‖ u64(len) ‖ rel` and is listed as
  // not covered (never hashed as absent); each argument trust cannot cover is `not-covered\0 ‖ u64(len) ‖ marker`.
  it('frames a file gone since its walk, a file it cannot read and an argument it cannot cover, each as its own record', () => {
    const manifest = Buffer.from(
      json({
        skills: [{ path: 'tips.md' }],
        hooks: { pre_tool_use: [{ command: ['sh', 'gone.sh', '../outside.sh'] }] },
      }),
    );
    f.write('ws/.rivumi/plugins/pk.json', manifest);
    const tips = f.write('ws/.rivumi/plugins/tips.md', '# Tips\n');
    const gone = f.write('ws/gone.sh', 'echo gone\n');
    // The walk finds gone.sh a regular file; every open of it finds it gone. tips.md may not be opened.
    fsPatch.replace('openSync', (original) => (p: fs.PathLike, ...rest: unknown[]) => {
      if (path.resolve(String(p)) === gone)
        throw Object.assign(new Error(`ENOENT: no such file or directory, open '${String(p)}'`), {
          code: 'ENOENT',
          errno: -2,
        });
      if (path.resolve(String(p)) === tips) throw permissionDenied('open', String(p));
      return (original as (...a: unknown[]) => unknown)(p, ...rest);
    });
    const h = loadRivumiProject(f.path('ws')).plugins[0]?.hashes;
    const record = (tag: string, rel: Buffer) => Buffer.concat([Buffer.from(tag), u64le(rel.length), rel]);
    const expected = newHash();
    expected.update(RIVUMI_PLUGIN_DOMAIN);
    expected.update(u64le(manifest.length));
    expected.update(manifest);
    expected.update(record('unreadable\0', Buffer.from('.rivumi/plugins/tips.md')));
    expected.update(record('missing\0', Buffer.from('gone.sh')));
    expected.update(record('not-covered\0', Buffer.from('../outside.sh')));
    assert.equal(h?.contentHash, expected.digest('hex'));
    assert.deepEqual(
      h?.notCovered.map((n) => n.message),
      [
        "hook argument '../outside.sh' names '../outside.sh' outside the workspace: it cannot be covered by trust",
        `plugin skill file '.rivumi/plugins/tips.md' cannot be read ([Errno 13] Permission denied: '${tips}'): a user who may read it loads what it holds, which Skillgate cannot hash: it cannot be covered by trust`,
      ],
    );
  });

  it('never lets a hook script too large to hash pass as covered: a change to it would not change the content hash', () => {
    f.write('ws/.rivumi/hooks.json', json({ pre_tool_use: [{ command: ['sh', 'big.sh'] }] }));
    f.write('ws/big.sh', 'echo one\n');
    fs.truncateSync(f.path('ws/big.sh'), MAX_HASHED_BYTES + 1);
    const before = loadRivumiProject(f.path('ws'));
    assert.deepEqual(
      before.hooksFile?.hashes?.notCovered.map((n) => n.message),
      [
        `hook script 'big.sh' is ${MAX_HASHED_BYTES + 1} bytes, past the ${MAX_HASHED_BYTES}-byte review limit, so Skillgate cannot hash what Rivumi runs: it cannot be covered by trust`,
      ],
    );
    assert.deepEqual(
      before.diagnostics.map((d) => [d.severity, d.code]),
      [['error', 'rivumi.hook.argv-uncovered']],
    );
  });

  it('lists a file whose name is not UTF-8 by its raw bytes', () => {
    f.write('ws/.rivumi/hooks.json', json({ pre_compact: [{ command: ['sh', 'r\udcff.sh'] }] }));
    fs.writeFileSync(Buffer.concat([Buffer.from(f.path('ws/r')), Buffer.from([0xff]), Buffer.from('.sh')]), 'x');
    const file = loadRivumiProject(f.path('ws')).hooksFile?.hashes?.files[1];
    assert.deepEqual([file?.path, file?.rawPath], ['r\udcff.sh', Buffer.from([0x72, 0xff, 0x2e, 0x73, 0x68])]);
    const utf8 = loadRivumiProject(f.path('ws')).hooksFile?.hashes?.files[0];
    assert.equal(utf8?.rawPath, undefined);
  });
});
