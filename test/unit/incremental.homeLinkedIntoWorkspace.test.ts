import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { Indexer, type IndexOptions } from '../../src/core/index/indexer';
import { envelope } from '../../src/core/report/contract';
import { jsonText } from '../../src/core/report/jsonText';
import { Fixture, LINUX_HOST } from './helpers/fixture';

/**
 * One Codewhale plugin directory reached by two discovery roots: Codewhale's home a link to the
 * workspace's `.codewhale` (`cw -> ws/.codewhale`, a `duplicate-root`: both discover each bundle,
 * codewhale.md §2.6), the user root a link to the workspace's `plugins` (refused, `root-symlink`,
 * §2.2), the workspace's `.codewhale` a link to the home, two workspace folders whose `.codewhale`
 * is one directory. A watcher reports a change under one spelling (the item's path, or where its
 * own watcher sees it); the long-lived index must re-read it in every root that reaches that
 * directory, so `refresh` prints what a fresh index prints. Found by the fuzz (`home-link` of
 * test/fuzz/codewhaleLinkedRoot.ts): an edit spelled `cw/plugins/d0/plugin.toml` re-read the user's
 * discovery and kept the workspace's stale one, a `disabled` row the bundle no longer had.
 */

const manifest = (name: string) => `schema_version = 1\n[plugin]\nname = "${name}"\nversion = "1.0.0"\n`;
const VALID = manifest('twin');
const INVALID = manifest('Bad_Name');

interface Arrangement {
  readonly name: string;
  /** The real plugins directory (relative to the fixture), the bundle written there first. */
  readonly plugins: string;
  /** The links, after the bundles: [target, link]. */
  readonly links: readonly (readonly [string, string])[];
  /** Directories made before the links (the parent a link is placed in). */
  readonly dirs?: readonly string[];
  readonly options: (f: Fixture) => Pick<IndexOptions, 'workspaces' | 'codewhaleHome'>;
  /** Every spelling of the plugins directory a watcher could report a change under. */
  readonly spellings: readonly string[];
  /** Whether the plugins directory may be missing at first (a root made later): the spellings reachable without it. */
  readonly madeLater?: readonly string[];
  /**
   * Whether the directory the links lead to may be missing at first too (`~/.codewhale -> /data/cw`,
   * `/data/cw` made later, each link dangling): the spellings a watcher may report its making under,
   * the directory's and its `plugins`'.
   */
  readonly targetMadeLater?: readonly string[];
}

const ARRANGEMENTS: readonly Arrangement[] = [
  {
    name: 'the home a link to the workspace’s .codewhale (cw -> ws/.codewhale)',
    plugins: 'ws/.codewhale/plugins',
    dirs: ['ws'],
    links: [['ws/.codewhale', 'cw']],
    options: (f) => ({ workspaces: [f.path('ws')], codewhaleHome: f.path('cw') }),
    spellings: ['cw/plugins', 'ws/.codewhale/plugins'],
    madeLater: ['cw/plugins', 'ws/.codewhale/plugins'],
    targetMadeLater: ['cw', 'cw/plugins', 'ws/.codewhale', 'ws/.codewhale/plugins'],
  },
  {
    name: 'the user root a link to the workspace’s plugins (cw/plugins -> ../ws/.codewhale/plugins, refused)',
    plugins: 'ws/.codewhale/plugins',
    dirs: ['cw'],
    links: [['../ws/.codewhale/plugins', 'cw/plugins']],
    options: (f) => ({ workspaces: [f.path('ws')], codewhaleHome: f.path('cw') }),
    spellings: ['cw/plugins', 'ws/.codewhale/plugins'],
  },
  {
    name: 'the workspace’s .codewhale a link to the home (ws/.codewhale -> ../cw)',
    plugins: 'cw/plugins',
    dirs: ['ws'],
    links: [['../cw', 'ws/.codewhale']],
    options: (f) => ({ workspaces: [f.path('ws')], codewhaleHome: f.path('cw') }),
    spellings: ['cw/plugins', 'ws/.codewhale/plugins'],
    madeLater: ['cw/plugins', 'ws/.codewhale/plugins'],
    targetMadeLater: ['cw', 'cw/plugins', 'ws/.codewhale', 'ws/.codewhale/plugins'],
  },
  ...[
    ['a', 'b'],
    ['b', 'a'],
  ].map((order): Arrangement => ({
    name: `two workspace folders, one's .codewhale a link to the other's (b/.codewhale -> ../a/.codewhale), given as ${order.join(' and ')}`,
    plugins: 'a/.codewhale/plugins',
    dirs: ['b'],
    links: [['../a/.codewhale', 'b/.codewhale']],
    options: (f) => ({ workspaces: order.map((w) => f.path(w)), codewhaleHome: null }),
    spellings: ['a/.codewhale/plugins', 'b/.codewhale/plugins'],
    madeLater: ['a/.codewhale/plugins', 'b/.codewhale/plugins'],
    targetMadeLater: ['a/.codewhale', 'a/.codewhale/plugins', 'b/.codewhale', 'b/.codewhale/plugins'],
  })),
  {
    name: 'two workspace folders whose .codewhale both lead to a third directory (dotfiles), and the home linked there too',
    plugins: 'dotfiles/plugins',
    dirs: ['a', 'b'],
    links: [
      ['../dotfiles', 'a/.codewhale'],
      ['../dotfiles', 'b/.codewhale'],
      ['dotfiles', 'cw'],
    ],
    options: (f) => ({ workspaces: [f.path('a'), f.path('b')], codewhaleHome: f.path('cw') }),
    spellings: ['a/.codewhale/plugins', 'b/.codewhale/plugins', 'cw/plugins', 'dotfiles/plugins'],
    madeLater: ['a/.codewhale/plugins', 'b/.codewhale/plugins', 'cw/plugins', 'dotfiles/plugins'],
    targetMadeLater: [
      ...['a/.codewhale', 'b/.codewhale', 'cw', 'dotfiles'],
      ...['a/.codewhale/plugins', 'b/.codewhale/plugins', 'cw/plugins', 'dotfiles/plugins'],
    ],
  },
  {
    name: 'the home a link to a directory outside the workspace, and the workspace’s .codewhale too (cw -> data/cw, ws/.codewhale -> ../data/cw)',
    plugins: 'data/cw/plugins',
    dirs: ['data', 'ws'],
    links: [
      ['data/cw', 'cw'],
      ['../data/cw', 'ws/.codewhale'],
    ],
    options: (f) => ({ workspaces: [f.path('ws')], codewhaleHome: f.path('cw') }),
    spellings: ['cw/plugins', 'data/cw/plugins', 'ws/.codewhale/plugins'],
    madeLater: ['cw/plugins', 'data/cw/plugins', 'ws/.codewhale/plugins'],
    targetMadeLater: [
      ...['cw', 'data/cw', 'ws/.codewhale'],
      ...['cw/plugins', 'data/cw/plugins', 'ws/.codewhale/plugins'],
    ],
  },
];

interface Edit {
  readonly name: string;
  /** The manifest `d0` holds before the edit; none: the plugins directory is made by the edit. */
  readonly before?: string;
  /** The change on disk, given the real plugins directory. */
  readonly apply: (f: Fixture, plugins: string) => void;
  /** The path reported, under one spelling of the plugins directory. */
  readonly reported: (spelling: string) => string;
}

const EDITS: readonly Edit[] = [
  {
    name: 'a valid manifest made invalid',
    before: VALID,
    apply: (f, plugins) => f.write(`${plugins}/d0/plugin.toml`, INVALID),
    reported: (s) => `${s}/d0/plugin.toml`,
  },
  {
    name: 'an invalid manifest made valid',
    before: INVALID,
    apply: (f, plugins) => f.write(`${plugins}/d0/plugin.toml`, VALID),
    reported: (s) => `${s}/d0/plugin.toml`,
  },
  {
    name: 'the bundle directory deleted',
    before: VALID,
    apply: (f, plugins) => fs.rmSync(f.path(`${plugins}/d0`), { recursive: true }),
    reported: (s) => `${s}/d0`,
  },
  {
    name: 'a new bundle directory',
    before: VALID,
    apply: (f, plugins) => f.write(`${plugins}/d1/plugin.toml`, manifest('other')),
    reported: (s) => `${s}/d1`,
  },
];

/** The plugins directory made, with a bundle, where there was none: reported as the directory. */
const MADE_LATER: Edit = {
  name: 'the plugins directory made with a bundle in it',
  apply: (f, plugins) => f.write(`${plugins}/d0/plugin.toml`, VALID),
  reported: (s) => s,
};

/** The links' target made, with `plugins` and a bundle in it, where each link dangled: reported as one of the two. */
const TARGET_MADE_LATER: Edit = {
  ...MADE_LATER,
  name: 'the links’ target made with a plugins directory and a bundle in it',
};

const listed = (snapshot: Parameters<typeof envelope>[0]) => jsonText(envelope(snapshot));

describe('incremental indexing of one Codewhale plugins directory reached by two discovery roots', () => {
  for (const arrangement of ARRANGEMENTS)
    it(`${arrangement.name}: a change under each spelling is re-read in every root, as a full index reads it`, () => {
      const cases = [
        ...EDITS.flatMap((edit) => arrangement.spellings.map((s) => ({ edit, spelling: s }))),
        ...(arrangement.madeLater ?? []).map((s) => ({ edit: MADE_LATER, spelling: s })),
        ...(arrangement.targetMadeLater ?? []).map((s) => ({ edit: TARGET_MADE_LATER, spelling: s })),
      ];
      // Every case is run, and those that differ are named together: one arrangement fails in several places at once.
      const differing: string[] = [];
      for (const { edit, spelling } of cases) {
        const f = new Fixture();
        try {
          const parent = arrangement.plugins.slice(0, arrangement.plugins.lastIndexOf('/'));
          if (edit === MADE_LATER) f.mkdir(parent);
          else if (edit.before !== undefined) f.write(`${arrangement.plugins}/d0/plugin.toml`, edit.before);
          for (const dir of arrangement.dirs ?? []) f.mkdir(dir);
          for (const [target, link] of arrangement.links) f.symlink(target, link);
          const options = (): IndexOptions => ({ evaHome: null, host: LINUX_HOST, ...arrangement.options(f) });
          const ix = new Indexer(options());
          const before = listed(ix.indexAll());
          edit.apply(f, arrangement.plugins);
          const reported = edit.reported(spelling);
          const after = listed(ix.refresh([f.path(reported)]));
          const fresh = listed(new Indexer(options()).indexAll());
          const where = `${edit.name}, reported as ${reported}`;
          assert.notEqual(fresh, before, `${where}: a full index reads the change`);
          if (after !== fresh) differing.push(where);
        } finally {
          f.remove();
        }
      }
      assert.deepEqual(differing, [], 'the refreshed index differs from a full index');
    });
});
