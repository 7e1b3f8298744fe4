import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import {
  RIVUMI_HOOKS_DOMAIN,
  RIVUMI_PLUGIN_DOMAIN,
  rivumiContentHash,
  skillsCoverage,
  type RivumiCoverage,
} from '../../src/core/systems/rivumi/hashes';
import { argvSeams, hookArgvCoverage } from '../../src/core/systems/rivumi/hookArgvFiles';
import { beneathWorks } from '../../src/core/fs/openBeneath';
import { fileRecord, newHash, sha256Hex, u64le } from '../../src/core/hashing/framing';
import { Fixture } from './helpers/fixture';

/**
 * A directory on the way to a covered file swapped for a symbolic link while Skillgate
 * reads it (a process in the repository racing the read). The walk checks every component
 * of a hook's argv file from the workspace, and of a plugin skill file from
 * `.rivumi/plugins`, with `lstat` (walkInside.ts, trust.md "Hashing": a link
 * anywhere is never followed), but a read by the whole path later follows a directory that
 * became a link, and the content hash, and trust, bind to bytes from outside the workspace.
 * The read names each component against the one before it (src/core/fs/openBeneath.ts):
 * such a file is hashed as absent, as a covered file that is itself a link is.
 */
(beneathWorks() ? describe : describe.skip)(
  'Rivumi: a covered file whose directory is swapped for a link (Linux)',
  () => {
    let f: Fixture;
    const OUTSIDE = '#!tools/interp\noutside bytes the workspace never held\n';
    const INSIDE = "#!/bin/sh\nthe workspace's own bytes\n";
    const MANIFEST = Buffer.from('{"hooks":{}}');
    beforeEach(() => {
      f = new Fixture();
      f.write('ws/scripts/run.sh', INSIDE, 0o755);
      f.write('ws/tools/interp', 'an interpreter in the workspace', 0o755);
      f.write('ws/.rivumi/plugins/p.json', '{}');
      f.write('ws/.rivumi/plugins/p/skills/s.md', INSIDE);
      f.write('outside/run.sh', OUTSIDE, 0o755);
      f.write('outside/skills/s.md', OUTSIDE);
    });
    afterEach(() => {
      delete argvSeams.walked;
      f.remove();
    });

    /** Replaces `ws/<rel>` by a link to `outside/<target>`. */
    const swap = (rel: string, target: string): void => {
      fs.rmSync(f.path('ws', rel), { recursive: true });
      fs.symlinkSync(f.path('outside', target), f.path('ws', rel));
    };
    const hookCoverage = (ws = 'ws'): RivumiCoverage => ({
      covered: hookArgvCoverage(f.path(ws), ['bash', 'scripts/run.sh']).files,
      notCovered: [],
    });
    const skillCoverage = (ws = 'ws'): RivumiCoverage => {
      const covered = skillsCoverage(f.path(ws), [
        { abs: f.path(ws, '.rivumi/plugins/p/skills/s.md'), index: 0 },
      ]).covered;
      return { covered, notCovered: [], skillFiles: covered };
    };
    const outsideSha = sha256Hex(OUTSIDE);

    it("hashes a hook script whose directory became a link after the walk as absent, never the link's bytes", () => {
      const coverage = hookCoverage();
      assert.deepEqual(coverage.covered.map(String), ['scripts/run.sh']);
      swap('scripts', '');
      const hashed = rivumiContentHash(RIVUMI_HOOKS_DOMAIN, f.path('ws'), MANIFEST, coverage);
      // The outside bytes in a workspace of its own, read as the covered file: the hash a read through the link gives.
      f.write('ws-outside/scripts/run.sh', OUTSIDE, 0o755);
      const outside = rivumiContentHash(RIVUMI_HOOKS_DOMAIN, f.path('ws-outside'), MANIFEST, coverage);
      assert.notEqual(hashed.hash, outside.hash);
      assert.deepEqual(
        hashed.files.filter((x) => x.sha256 === outsideSha),
        [],
      );
      // As a covered script that is itself a link: hashed as absent, nothing unreadable.
      f.write('ws-linked/scripts/elsewhere.sh', INSIDE, 0o755);
      f.symlink('elsewhere.sh', 'ws-linked/scripts/run.sh');
      assert.deepEqual(hashed, rivumiContentHash(RIVUMI_HOOKS_DOMAIN, f.path('ws-linked'), MANIFEST, coverage));
      assert.deepEqual(hashed.unreadable, []);
    });

    it("hashes a plugin skill file whose directory became a link after the walk as absent, never the link's bytes", () => {
      const coverage = skillCoverage();
      assert.deepEqual(coverage.covered.map(String), ['.rivumi/plugins/p/skills/s.md']);
      swap('.rivumi/plugins/p/skills', 'skills');
      const hashed = rivumiContentHash(RIVUMI_PLUGIN_DOMAIN, f.path('ws'), MANIFEST, coverage);
      f.write('ws-outside/.rivumi/plugins/p/skills/s.md', OUTSIDE);
      const outside = rivumiContentHash(RIVUMI_PLUGIN_DOMAIN, f.path('ws-outside'), MANIFEST, coverage);
      assert.notEqual(hashed.hash, outside.hash);
      assert.deepEqual(hashed.files, []);
      f.symlink('../elsewhere.md', 'ws-linked/.rivumi/plugins/p/skills/s.md');
      assert.deepEqual(hashed, rivumiContentHash(RIVUMI_PLUGIN_DOMAIN, f.path('ws-linked'), MANIFEST, coverage));
    });

    it("reads no #! line through a directory that became a link after the walk, so the link's interpreter is not covered", () => {
      argvSeams.walked = (rel) => {
        if (rel.toString() === 'scripts/run.sh') swap('scripts', '');
      };
      const files = hookArgvCoverage(f.path('ws'), ['bash', 'scripts/run.sh']).files.map(String);
      // Through the link, `#!tools/interp` would cover the workspace's tools/interp: a file the script inside never names.
      assert.deepEqual(files, ['scripts/run.sh']);
    });

    it('reads a skill through a linked .rivumi as before, as Rivumi follows it (rivumi.root-symlink)', () => {
      fs.renameSync(f.path('ws/.rivumi'), f.path('rivumi-real'));
      f.symlink(f.path('rivumi-real'), 'ws/.rivumi');
      f.write('ws-real/.rivumi/plugins/p/skills/s.md', INSIDE);
      const hashed = rivumiContentHash(RIVUMI_PLUGIN_DOMAIN, f.path('ws'), MANIFEST, skillCoverage());
      assert.deepEqual(
        hashed.files.map((x) => [x.path, x.sha256]),
        [['.rivumi/plugins/p/skills/s.md', sha256Hex(INSIDE)]],
      );
      assert.deepEqual(
        hashed,
        rivumiContentHash(RIVUMI_PLUGIN_DOMAIN, f.path('ws-real'), MANIFEST, skillCoverage('ws-real')),
      );
    });

    it('hashes what trust.md defines, each covered file as a read of its whole path reads it, where nothing races', () => {
      const coverage = {
        covered: [...skillCoverage().covered, ...hookCoverage().covered],
        notCovered: [],
        skillFiles: skillCoverage().covered,
      };
      // Expected from the definition (trust.md "Hashes"), each file read by its whole path.
      const h = newHash();
      h.update(RIVUMI_PLUGIN_DOMAIN);
      h.update(u64le(MANIFEST.length));
      h.update(MANIFEST);
      for (const [rel, executable] of [
        ['.rivumi/plugins/p/skills/s.md', false],
        ['scripts/run.sh', true],
      ] as const)
        fileRecord(h, rel, executable, fs.readFileSync(f.path('ws', rel)), 'workspace-relative-file');
      assert.equal(rivumiContentHash(RIVUMI_PLUGIN_DOMAIN, f.path('ws'), MANIFEST, coverage).hash, h.digest('hex'));
    });
  },
);
