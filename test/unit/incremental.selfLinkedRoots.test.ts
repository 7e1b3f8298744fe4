import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { Indexer, type IndexOptions } from '../../src/core/index/indexer';
import type { Snapshot } from '../../src/core/index/snapshot';
import { Fixture, LINUX_HOST, writeD, writeW } from './helpers/fixture';
import { A0, L0, writeEvaProject } from './helpers/evaFixture';

/**
 * Agent roots that lead back into themselves: a link that makes a root the workspace folder or
 * its parent (`.rivumi -> .`, `config -> ..`, `~/.codewhale -> ~`), a file an agent reads reached
 * through such a link, two workspace folders one of which is a link inside the other. One file
 * (or link) is spelled two ways or more, and a watcher may report a change under any of them:
 * the folder as given, the canonical path, the link's spelling. Whichever it is, the long-lived
 * index must re-read what the change touches, so the refreshed snapshot equals a fresh full index
 * (hashes, items, decisions): a bundle that kept its old hash would keep its trust until the next
 * re-check. 80c258b fixed one such shape (incremental.replacedDirectories.test.ts); this is the
 * rest of the family, shapes the agent refuses included (`changes: false`: the fresh index reads
 * the same as before, and so must the refresh).
 */

interface Edit {
  readonly name: string;
  /** A file written (its real spelling under the fixture), or any other change on disk. */
  readonly apply: { readonly file: string; readonly text: string } | ((f: Fixture) => void);
  /** Each spelling a watcher could report the change under, relative to the fixture. */
  readonly reported: readonly string[];
  /** Whether a fresh index reads anything different after the change (false: the agent refuses the shape). */
  readonly changes: boolean;
}

interface Shape {
  readonly name: string;
  readonly build: (f: Fixture) => void;
  readonly options: (f: Fixture) => Partial<IndexOptions> & Pick<IndexOptions, 'workspaces'>;
  readonly edits: readonly Edit[];
}

const HOOKS = (script: string) => JSON.stringify({ pre_tool_use: [{ command: ['sh', script] }] });
const CW_SKILL = '---\nname: example\ndescription: example\n---\nedited\n';
const USER_SKILL = (description: string) => `---\nname: rev\ndescription: ${description}\n---\nbody\n`;
const ADAPTER_EDITED = A0.replace('priority: 10', 'priority: 11');

/** What Rivumi reads in its `.rivumi` (skills, a plugin with one skill, hooks running `scripts/check.sh`), in `dir`. */
const writeRivumi = (f: Fixture, dir: string) => {
  f.write(`${dir}/skills/a.md`, '---\nname: a\n---\nbody\n');
  f.write(`${dir}/hooks.json`, HOOKS('scripts/check.sh'));
  f.write(`${dir}/plugins/p.json`, JSON.stringify({ name: 'p', skills: [{ path: 'p/s.md' }] }));
  f.write(`${dir}/plugins/p/s.md`, '---\nname: ps\n---\nbody\n');
};

/** An Eva project (eva.md §7.1 P0 with A0 and L0) whose `config/` holds its files at `dir` itself. */
const writeEvaConfigAt = (f: Fixture, dir: string, ws: string) => {
  writeEvaProject(f, 'build');
  fs.cpSync(f.path('build/config'), f.path(dir), { recursive: true });
  fs.cpSync(f.path('build/schemas'), f.path(`${ws}/schemas`), { recursive: true });
  fs.rmSync(f.path('build'), { recursive: true });
};

/**
 * A `.codewhale` link replaced by a directory holding a bundle of the same name with other content,
 * reported as `.codewhale` alone (a rename over it): kept, the old bundle's hash kept its trust.
 */
const replaceCodewhaleLink =
  (ws: string) =>
  (f: Fixture): void => {
    fs.unlinkSync(f.path(`${ws}/.codewhale`));
    writeW(f, '', `${ws}/.codewhale/plugins/example-plugin`);
    f.write(`${ws}/.codewhale/plugins/example-plugin/skills/example/SKILL.md`, CW_SKILL);
  };

const SHAPES: readonly Shape[] = [
  {
    // rivumi.md §2 "Links": `.rivumi` itself is followed.
    name: 'Rivumi: .rivumi -> . (the workspace folder is .rivumi)',
    build: (f) => {
      writeRivumi(f, 'ws');
      f.write('ws/scripts/check.sh', 'exit 0\n');
      f.symlink('.', 'ws/.rivumi');
    },
    options: (f) => ({ workspaces: [f.path('ws')] }),
    edits: [
      {
        name: 'a plugin skill',
        apply: { file: 'ws/plugins/p/s.md', text: '---\nname: ps\n---\nedited\n' },
        reported: ['ws/plugins/p/s.md', 'ws/.rivumi/plugins/p/s.md'],
        changes: true,
      },
      {
        name: 'hooks.json',
        apply: { file: 'ws/hooks.json', text: HOOKS('scripts/other.sh') },
        reported: ['ws/hooks.json', 'ws/.rivumi/hooks.json'],
        changes: true,
      },
      {
        name: 'the script a hook runs',
        apply: { file: 'ws/scripts/check.sh', text: 'exit 1\n' },
        reported: ['ws/scripts/check.sh', 'ws/.rivumi/scripts/check.sh'],
        changes: true,
      },
    ],
  },
  {
    name: "Rivumi: .rivumi -> .. (the workspace's parent is .rivumi)",
    build: (f) => {
      f.write('x/hooks.json', HOOKS('scripts/check.sh'));
      f.write('x/ws/scripts/check.sh', 'exit 0\n');
      f.symlink('..', 'x/ws/.rivumi');
    },
    options: (f) => ({ workspaces: [f.path('x/ws')] }),
    edits: [
      {
        name: 'hooks.json',
        apply: { file: 'x/hooks.json', text: HOOKS('scripts/other.sh') },
        reported: ['x/hooks.json', 'x/ws/.rivumi/hooks.json'],
        changes: true,
      },
      {
        name: 'the script a hook runs',
        apply: { file: 'x/ws/scripts/check.sh', text: 'exit 1\n' },
        reported: ['x/ws/scripts/check.sh', 'x/ws/.rivumi/ws/scripts/check.sh'],
        changes: true,
      },
    ],
  },
  {
    // rivumi.md §3.2 step 2, §5.4 step 1: a linked `skills` or `plugins` fails the load.
    name: 'Rivumi: .rivumi/skills -> .. and .rivumi/plugins -> ../.. (refused)',
    build: (f) => {
      f.write('ws/.rivumi/hooks.json', HOOKS('check.sh'));
      f.write('ws/check.sh', 'exit 0\n');
      f.write('ws/.rivumi/a.md', '---\nname: a\n---\nbody\n');
      f.symlink('..', 'ws/.rivumi/skills');
      f.symlink('../..', 'ws/.rivumi/plugins');
    },
    options: (f) => ({ workspaces: [f.path('ws')] }),
    edits: [
      {
        name: 'a file the linked skills directory holds',
        apply: { file: 'ws/.rivumi/a.md', text: '---\nname: a\n---\nedited\n' },
        reported: ['ws/.rivumi/a.md', 'ws/.rivumi/skills/.rivumi/a.md'],
        changes: false,
      },
      {
        name: 'the script a hook runs, spelled through the linked plugins directory',
        apply: { file: 'ws/check.sh', text: 'exit 1\n' },
        reported: ['ws/check.sh', 'ws/.rivumi/plugins/ws/check.sh'],
        // The plugins' failure fails the hook load, but hooks.json is still a unit whose hash covers its script.
        changes: true,
      },
    ],
  },
  {
    // The argv walk stops at the link (hookArgvFiles.ts): the hash pins the link, and trust is refused.
    name: 'Rivumi: a hook script named through .rivumi -> .',
    build: (f) => {
      f.write('ws/hooks.json', HOOKS('.rivumi/check.sh'));
      f.write('ws/check.sh', 'exit 0\n');
      f.symlink('.', 'ws/.rivumi');
    },
    options: (f) => ({ workspaces: [f.path('ws')] }),
    edits: [
      {
        name: 'the script',
        apply: { file: 'ws/check.sh', text: 'exit 1\n' },
        reported: ['ws/check.sh', 'ws/.rivumi/check.sh'],
        changes: false,
      },
    ],
  },
  {
    // eva.md §1.1: `config/eva.yaml` is a regular file through the link; the roots realpath inside the project.
    name: 'Eva: config -> . (the workspace folder is config/)',
    build: (f) => {
      writeEvaConfigAt(f, 'ws', 'ws');
      f.symlink('.', 'ws/config');
      f.mkdir('home');
    },
    options: (f) => ({ workspaces: [f.path('ws')], evaHome: f.path('home') }),
    edits: [
      {
        name: 'an adapter manifest',
        apply: { file: 'ws/adapters/review.yaml', text: ADAPTER_EDITED },
        reported: ['ws/adapters/review.yaml', 'ws/config/adapters/review.yaml'],
        changes: true,
      },
      {
        name: 'a Lua skill script',
        apply: { file: 'ws/skills/lint.lua', text: 'return { x = 1 }\n' },
        reported: ['ws/skills/lint.lua', 'ws/config/skills/lint.lua'],
        changes: true,
      },
      {
        name: 'eva.yaml',
        apply: { file: 'ws/eva.yaml', text: 'runtime: [' },
        reported: ['ws/eva.yaml', 'ws/config/eva.yaml'],
        changes: true,
      },
    ],
  },
  {
    // eva.md §1.1 "Containment [S]": every root resolves outside the project, none is read.
    name: "Eva: config -> .. (the workspace's parent is config/; refused)",
    build: (f) => {
      writeEvaConfigAt(f, 'x', 'x/ws');
      f.symlink('..', 'x/ws/config');
      f.mkdir('home');
    },
    options: (f) => ({ workspaces: [f.path('x/ws')], evaHome: f.path('home') }),
    edits: [
      {
        name: 'an adapter manifest',
        apply: { file: 'x/adapters/review.yaml', text: ADAPTER_EDITED },
        reported: ['x/adapters/review.yaml', 'x/ws/config/adapters/review.yaml'],
        changes: false,
      },
    ],
  },
  {
    // eva.md §3.5: a path is joined to the project root and realpath'd; through a link back up it stays inside.
    name: 'Eva: skill.path and lua.script reached through links back up (lnk -> ., config/up -> ..)',
    build: (f) => {
      writeEvaProject(f, 'ws', A0.replace('  id: review\n', '  id: review\n  path: lnk/skills/review/SKILL.md\n'));
      f.write(
        'ws/config/capabilities/lint.yaml',
        L0.replace('config/skills/lint.lua', 'config/up/config/skills/lint.lua'),
      );
      f.write('ws/skills/review/SKILL.md', '---\nname: review\ndescription: d\n---\nbody\n');
      f.symlink('.', 'ws/lnk');
      f.symlink('..', 'ws/config/up');
      f.mkdir('home');
    },
    options: (f) => ({ workspaces: [f.path('ws')], evaHome: f.path('home') }),
    edits: [
      {
        name: 'the SKILL.md skill.path names',
        apply: { file: 'ws/skills/review/SKILL.md', text: '---\nname: review\ndescription: d\n---\nedited\n' },
        reported: ['ws/skills/review/SKILL.md', 'ws/lnk/skills/review/SKILL.md', 'ws/config/up/skills/review/SKILL.md'],
        changes: true,
      },
      {
        name: 'the Lua script',
        apply: { file: 'ws/config/skills/lint.lua', text: 'return { x = 1 }\n' },
        reported: ['ws/config/skills/lint.lua', 'ws/config/up/config/skills/lint.lua'],
        changes: true,
      },
    ],
  },
  {
    // eva.md §1.3: `~/.codex/skills` read as `$HOME` joins it; a linked child folder is followed.
    name: 'Eva: user skill folders that lead back into themselves (~/.codex -> ~, a skill folder holding itself)',
    build: (f) => {
      writeEvaProject(f, 'ws');
      f.write('home/skills/rev/SKILL.md', USER_SKILL('a'));
      f.symlink('.', 'home/.codex');
      f.symlink('.', 'home/skills/rev/self');
      f.mkdir('home/.agents');
      f.symlink('../.codex/skills', 'home/.agents/skills');
    },
    options: (f) => ({ workspaces: [f.path('ws')], evaHome: f.path('home') }),
    edits: [
      {
        name: "a user skill's SKILL.md",
        apply: { file: 'home/skills/rev/SKILL.md', text: USER_SKILL('edited') },
        reported: [
          'home/skills/rev/SKILL.md',
          'home/.codex/skills/rev/SKILL.md',
          'home/.agents/skills/rev/SKILL.md',
          'home/.codex/skills/rev/self/SKILL.md',
        ],
        changes: true,
      },
    ],
  },
  {
    // The user root and a workspace opened at the home are one path, both scanned (codewhale.md §2.6).
    name: 'Codewhale: ~/.codewhale -> ~, a workspace opened at the home',
    build: (f) => {
      writeD(f, '', 'home/plugins/demo');
      f.symlink('.', 'home/.codewhale');
    },
    options: (f) => ({ workspaces: [f.path('home')], codewhaleHome: f.path('home/.codewhale') }),
    edits: [
      {
        name: 'a bundle manifest',
        apply: {
          file: 'home/plugins/demo/plugin.toml',
          text: 'schema_version = 1\n[plugin]\nname = "demo"\nversion = "1.0.1"\n',
        },
        reported: ['home/plugins/demo/plugin.toml', 'home/.codewhale/plugins/demo/plugin.toml'],
        changes: true,
      },
    ],
  },
  ...[
    { link: '.', ws: 'ws', target: 'ws' },
    { link: '..', ws: 'x/ws', target: 'x' },
  ].map(({ link, ws, target }): Shape => ({
    // codewhale.md §2: a linked `.codewhale` is followed; only the root's own last component may not be a link.
    name: `Codewhale: .codewhale -> ${link}`,
    build: (f) => {
      writeW(f, '', `${target}/plugins/example-plugin`);
      f.mkdir(ws);
      f.symlink(link, `${ws}/.codewhale`);
    },
    options: (f) => ({ workspaces: [f.path(ws)] }),
    edits: [
      {
        name: 'a bundle skill',
        apply: { file: `${target}/plugins/example-plugin/skills/example/SKILL.md`, text: CW_SKILL },
        reported: [
          `${target}/plugins/example-plugin/skills/example/SKILL.md`,
          `${ws}/.codewhale/plugins/example-plugin/skills/example/SKILL.md`,
        ],
        changes: true,
      },
      {
        name: 'the link replaced by a directory with a bundle of that name',
        apply: replaceCodewhaleLink(ws),
        reported: [`${ws}/.codewhale`],
        changes: true,
      },
    ],
  })),
  {
    // codewhale.md §2 (`root-symlink`) and §4 (`component trees may not contain symbolic link`).
    name: 'Codewhale: .codewhale/plugins -> .., and a bundle holding a link to itself (refused)',
    build: (f) => {
      writeW(f, '', 'ws/example-plugin');
      f.mkdir('ws/.codewhale');
      f.symlink('..', 'ws/.codewhale/plugins');
      writeW(f, '', 'home/plugins/example-plugin');
      f.symlink('.', 'home/plugins/example-plugin/self');
    },
    options: (f) => ({ workspaces: [f.path('ws')], codewhaleHome: f.path('home') }),
    edits: [
      {
        name: 'a skill in the linked root',
        apply: { file: 'ws/example-plugin/skills/example/SKILL.md', text: CW_SKILL },
        reported: [
          'ws/example-plugin/skills/example/SKILL.md',
          'ws/.codewhale/plugins/example-plugin/skills/example/SKILL.md',
        ],
        changes: false,
      },
      {
        name: 'a skill of the bundle holding itself',
        apply: { file: 'home/plugins/example-plugin/skills/example/SKILL.md', text: CW_SKILL },
        reported: [
          'home/plugins/example-plugin/skills/example/SKILL.md',
          'home/plugins/example-plugin/self/skills/example/SKILL.md',
        ],
        changes: false,
      },
    ],
  },
  {
    // codewhale.md §2 (`bundle-symlink`). Only the bundle's real spelling is reported: the workbench's
    // watchers follow no link inside a folder, so none reports an edit as `plugins/loop/example-plugin/…`.
    name: 'Codewhale: a bundle directory linking to its root (refused), beside a bundle',
    build: (f) => {
      writeW(f);
      f.symlink('.', 'ws/.codewhale/plugins/loop');
    },
    options: (f) => ({ workspaces: [f.path('ws')] }),
    edits: [
      {
        name: 'a skill of the bundle beside it',
        apply: { file: 'ws/.codewhale/plugins/example-plugin/skills/example/SKILL.md', text: CW_SKILL },
        reported: ['ws/.codewhale/plugins/example-plugin/skills/example/SKILL.md'],
        changes: true,
      },
    ],
  },
  {
    // Two canonical paths, one inside the other: both kept (indexer.ts `distinctWorkspaces`), each read on its own.
    // The inner folder's files are reported under its own spelling: the outer's watchers cover only its own
    // `.codewhale/**` and the like, which `inner/.codewhale/…` is not.
    name: 'nested workspace folders, the outer given through a link inside the inner (a/inner/up -> ..)',
    build: (f) => {
      writeW(f, '', 'a/.codewhale/plugins/example-plugin');
      writeW(f, '', 'a/inner/.codewhale/plugins/example-plugin');
      writeRivumi(f, 'a/inner/.rivumi');
      f.write('a/inner/scripts/check.sh', 'exit 0\n');
      writeEvaProject(f, 'a/inner');
      f.mkdir('home');
      f.symlink('..', 'a/inner/up');
    },
    options: (f) => ({
      workspaces: [f.path('a/inner/up'), f.path('a/inner')],
      evaHome: f.path('home'),
      rivumiHooksEnv: '1',
    }),
    edits: [
      {
        name: "the outer folder's Codewhale bundle skill",
        apply: { file: 'a/.codewhale/plugins/example-plugin/skills/example/SKILL.md', text: CW_SKILL },
        reported: [
          'a/inner/up/.codewhale/plugins/example-plugin/skills/example/SKILL.md',
          'a/.codewhale/plugins/example-plugin/skills/example/SKILL.md',
        ],
        changes: true,
      },
      ...[
        ['a Codewhale bundle skill', 'a/inner/.codewhale/plugins/example-plugin/skills/example/SKILL.md', CW_SKILL],
        ['a Rivumi plugin skill', 'a/inner/.rivumi/plugins/p/s.md', '---\nname: ps\n---\nedited\n'],
        ['the script a Rivumi hook runs', 'a/inner/scripts/check.sh', 'exit 1\n'],
        ['an Eva adapter manifest', 'a/inner/config/adapters/review.yaml', ADAPTER_EDITED],
      ].map(([name, file, text]) => ({
        name: `the inner folder's ${name as string}`,
        apply: { file: file as string, text: text as string },
        reported: [file as string],
        changes: true,
      })),
    ],
  },
  ...[
    ['a/self', 'a'],
    ['a', 'a/self'],
  ].map((workspaces): Shape => ({
    // One folder, two spellings: the first given is kept, the other an alias (indexer.ts `distinctWorkspaces`).
    name: `two workspace folders, one a link inside the other (a/self -> .), given as ${workspaces.join(' and ')}`,
    build: (f) => {
      writeW(f, '', 'a/.codewhale/plugins/example-plugin');
      writeRivumi(f, 'a/.rivumi');
      f.write('a/scripts/check.sh', 'exit 0\n');
      writeEvaProject(f, 'a');
      f.mkdir('home');
      f.symlink('.', 'a/self');
    },
    options: (f) => ({ workspaces: workspaces.map((w) => f.path(w)), evaHome: f.path('home'), rivumiHooksEnv: '1' }),
    edits: [
      ['a Codewhale bundle skill', 'a/.codewhale/plugins/example-plugin/skills/example/SKILL.md', CW_SKILL],
      ['a Rivumi plugin skill', 'a/.rivumi/plugins/p/s.md', '---\nname: ps\n---\nedited\n'],
      ['the script a Rivumi hook runs', 'a/scripts/check.sh', 'exit 1\n'],
      ['an Eva adapter manifest', 'a/config/adapters/review.yaml', ADAPTER_EDITED],
    ].map(([name, file, text]) => ({
      name: name as string,
      apply: { file: file as string, text: text as string },
      reported: [file as string, (file as string).replace(/^a\//, 'a/self/')],
      changes: true,
    })),
  })),
];

const strip = (s: Snapshot): unknown => ({ ...s, generation: 0 });

describe('incremental indexing of agent roots that lead back into themselves', () => {
  for (const shape of SHAPES)
    it(`${shape.name}: a change under each spelling is re-read as a full index reads it`, () => {
      for (const edit of shape.edits)
        for (const reported of edit.reported) {
          const f = new Fixture();
          try {
            shape.build(f);
            const options = (): IndexOptions => ({
              codewhaleHome: null,
              evaHome: null,
              host: LINUX_HOST,
              ...shape.options(f),
            });
            const ix = new Indexer(options());
            const before = ix.indexAll();
            if (typeof edit.apply === 'function') edit.apply(f);
            else f.write(edit.apply.file, edit.apply.text);
            const after = ix.refresh([f.path(reported)]);
            const fresh = new Indexer(options()).indexAll();
            const where = `${edit.name}, reported as ${reported}`;
            assert.equal(
              JSON.stringify(strip(fresh)) !== JSON.stringify(strip(before)),
              edit.changes,
              `${where}: whether a full index reads a change`,
            );
            assert.deepEqual(strip(after), strip(fresh), `${where}: as a full index reads it`);
          } finally {
            f.remove();
          }
        }
    });
});
