import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Rng } from './random';
import { EVA_USER_CAP } from './eva';

/**
 * The links an agent follows, made in an input and then changed, for `watched-change-seen`
 * (watchedChanges.ts). Each agent reads through some links (codewhale.md §2.2: lstat looks at
 * a root's last component only, so a linked `.codewhale` or Codewhale home is followed; rivumi.md
 * §2 "Links": `.rivumi` itself is not checked; eva.md §1.3: "A child directory that is a symlink
 * is followed", and `~/.codex`, `~/.agents` are read through whatever they are), and the editor's
 * watchers follow none (VS Code resolves a watcher's base once, when it makes it, and watches no
 * link below it): each such place needs a watch of its own, which is what the invariant checks.
 *
 * Every path made here lies under the input root: link targets in `links/` (outside the
 * workspace and the home) or in `ws/tools/` (inside the workspace, where no folder watcher
 * looks either); a link's text is relative or absolute, and may lead through another link
 * (`Route`), whose way is walked as the kernel walks it (`walk`: a `..` after a link is taken
 * where the link leads, never folded in the text as `path.resolve` would).
 */

/** What is behind a link: what the agent reads there. */
export type PlaceKind =
  /** A workspace's `.codewhale`, or Codewhale's home: `plugins/<bundle>/`. */
  | 'codewhale'
  /** Codewhale's user root itself (`<home>/plugins`, a link Codewhale refuses, §2.2 `root-symlink`): `<bundle>/`. */
  | 'codewhale-plugins'
  /** A workspace's `.rivumi`: `skills/*.md`, `plugins/*.json`, `hooks.json`. */
  | 'rivumi'
  /** Eva's `~/.codex` or `~/.agents`: `skills/<folder>/SKILL.md`. */
  | 'eva-dot'
  /** One of Eva's user skill folders: `SKILL.md`. */
  | 'skill-folder';

/** A place an agent reads through when it is a link: absolute, under the input root. */
export interface Place {
  readonly kind: PlaceKind;
  /** Whose place it is, in words: groups a failure across inputs (`workspace .codewhale`, `Codewhale home`). */
  readonly role: string;
  readonly at: string;
  /**
   * A link met on the way of another place's link, not a place of its own (`.codewhale -> ../links/a`
   * with `links/a` a link; `.codewhale -> ../links/x/cw` with `links/x` one): the rest of that way after
   * it, as the text spells it (`''`, `cw`, `../b`). Undefined for a place's own link.
   */
  readonly rest?: string;
}

export interface LinkContext {
  /** The input root (every path made lies under it). */
  readonly root: string;
  readonly ws: string;
  /** Eva's home (`--eva-home`): its `.codex` and `.agents`. */
  readonly home: string;
  /** Codewhale's home as the index is given it, or null (no user bundles). */
  readonly codewhaleHome: string | null;
  /** Whether the workspace is an Eva project (user skill folders are listed only beside one, eva.md §1.3). */
  readonly evaProject: boolean;
}

/** One change to the disk, as a user, a `git pull` or a dotfiles manager makes it. */
export type LinkChange =
  /** `ln -sfn <to> <link>`: a new link renamed over the old one, one change of the link's own entry. */
  | { readonly how: 'repoint'; readonly place: Place; readonly to: string }
  /**
   * The first missing entry on a dangling link's way made, a directory, then the `rest` of the way
   * (each `..` taken in the directory reached, as the kernel does), with what the agent reads at its
   * end, in one go (`git clone`).
   */
  | { readonly how: 'create-target'; readonly place: Place; readonly target: string; readonly rest?: string }
  /** A link's target removed with everything in it (`rm -rf`). */
  | { readonly how: 'delete-target'; readonly place: Place; readonly target: string }
  /** A `SKILL.md` written into a linked skill folder that held none. */
  | { readonly how: 'write-skill'; readonly place: Place; readonly file: string }
  /** A file behind a link rewritten. */
  | { readonly how: 'edit'; readonly place: Place; readonly file: string; readonly append: string }
  /** A new bundle (a Codewhale bundle, a Rivumi skill, an Eva skill folder) behind a link, in one go. */
  | { readonly how: 'add'; readonly place: Place; readonly dir: string; readonly name: string };

/** Codewhale's home when the arrangement links it (the input's own is left for Eva). */
const LINKED_CODEWHALE_HOME = 'cwhome';

function exists(p: string): 'dir' | 'link' | 'other' | undefined {
  try {
    const st = fs.lstatSync(p);
    return st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : 'other';
  } catch {
    return undefined;
  }
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Whether `p` is `root` or below it, as written (no link followed). */
function within(root: string, p: string): boolean {
  const r = path.relative(root, p);
  return r === '' || (!r.startsWith('..') && !path.isAbsolute(r));
}

function realOf(p: string): string | undefined {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return undefined;
  }
}

/**
 * Whether what is made at `p` stays under `root`: the deepest entry on its way that exists leads
 * there (an op of the input may have made a directory on the way a link out of it).
 */
function staysInside(root: string, p: string): boolean {
  const realRoot = realOf(root);
  if (realRoot === undefined || !within(root, p)) return false;
  for (let at = p; ; at = path.dirname(at)) {
    if (exists(at) !== undefined) {
      const real = realOf(at);
      return real !== undefined && within(realRoot, real);
    }
    if (path.dirname(at) === at) return false;
  }
}

/** Writes `files` (relative path → text) under `dir`, parents made. */
function writeAll(dir: string, files: Readonly<Record<string, string>>): void {
  for (const [rel, text] of Object.entries(files)) {
    const p = path.join(dir, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, text);
  }
}

const skillText = (name: string) => `---\nname: ${name}\ndescription: A skill behind a link.\n---\nBody.\n`;

/** A Codewhale bundle `name`: a plugin.json and one skill (as test/unit/helpers/watchedWorkspace.ts writes one). */
function codewhaleBundle(name: string): Record<string, string> {
  return {
    'plugin.json': JSON.stringify({ $schema: 'https://agent-plugins.org/schemas/plugin.json', name, version: '1.0.0' }),
    'skills/s/SKILL.md': skillText('s'),
  };
}

/** What the agent reads in a directory of `kind`, one unit named `name`, as files relative to it. */
export function contentOf(kind: PlaceKind, name: string): Record<string, string> {
  const under = (dir: string, files: Record<string, string>) =>
    Object.fromEntries(Object.entries(files).map(([rel, text]) => [`${dir}/${rel}`, text]));
  switch (kind) {
    case 'codewhale':
      return under(`plugins/${name}`, codewhaleBundle(name));
    case 'codewhale-plugins':
      return under(name, codewhaleBundle(name));
    case 'rivumi':
      return { [`skills/${name}.md`]: skillText(name) };
    case 'eva-dot':
      return { [`skills/${name}/SKILL.md`]: skillText(name) };
    case 'skill-folder':
      return { 'SKILL.md': skillText(name) };
  }
}

/** A link's text for `target` from `link`: relative (as a repository or dotfiles manager writes it) or absolute. */
function linkText(rng: Rng, link: string, target: string): string {
  return rng.bool(0.6) ? path.relative(path.dirname(link), target) : target;
}

/**
 * A way walked as the kernel walks it (path_resolution(7)): a link's text followed where the link is
 * met, and a `..` taken in the directory reached, never folded in the text (`links/a/../b` with `links/a`
 * a link to `d/a0` is `d/b`; `path.resolve` would say `links/b`).
 */
interface Way {
  /** Each link met, spelled under the real directory that holds it, and the way left after it. */
  readonly links: { readonly entry: string; readonly rest: string }[];
  /** The real directory at its end, when it leads to one. */
  readonly resolved?: string;
  /** The first entry on it that is missing, and the way left after that entry. */
  readonly missing?: { readonly entry: string; readonly rest: string };
}

/** The way `rest` (components split at `/`) from the real directory `from`. */
function walk(from: string, rest: string): Way {
  const links: { entry: string; rest: string }[] = [];
  let at = rest.startsWith('/') ? '/' : from;
  const queue = rest.split('/');
  for (let followed = 0; queue.length > 0;) {
    const name = queue.shift() as string;
    if (name === '' || name === '.') continue;
    if (name === '..') {
      at = path.dirname(at);
      continue;
    }
    const entry = path.join(at, name);
    const kind = exists(entry);
    if (kind === undefined) return { links, missing: { entry, rest: queue.join('/') } };
    if (kind === 'dir') {
      at = entry;
      continue;
    }
    // A file on the way, or more links than Linux follows (MAXSYMLINKS): it leads nowhere.
    if (kind !== 'link' || ++followed > 40) return { links };
    links.push({ entry, rest: queue.join('/') });
    const text = fs.readlinkSync(entry);
    if (text.startsWith('/')) at = '/';
    queue.unshift(...text.split('/'));
  }
  return { links, resolved: at };
}

/** A place's way: its own link, then the rest after it; its first link is the place's own. */
function wayOf(place: Place): Way {
  const dir = realOf(path.dirname(place.at));
  if (dir === undefined) return { links: [] };
  const own = path.basename(place.at);
  return walk(dir, place.rest ? `${own}/${place.rest}` : own);
}

/**
 * Makes the `target` of a way, a directory, then the `rest` of the way in it one component at a
 * time (`..` in the directory reached, as the kernel takes it: `fs.mkdirSync` would fold it in the
 * text first); returns the directory at its end, and hands `made` each entry it made in a
 * directory that was there before (the entries a watcher of that directory sees made).
 */
function makeWay(target: string, rest: string, made: (p: string) => void): string {
  const ours = new Set<string>();
  const make = (p: string) => {
    if (exists(p) !== undefined) return;
    const top = topMissing(p);
    fs.mkdirSync(p, { recursive: true });
    if (!ours.has(path.dirname(top))) made(top);
    for (let q = p; q !== path.dirname(top); q = path.dirname(q)) ours.add(q);
  };
  make(target);
  let at = target;
  for (const name of rest.split('/')) {
    if (name === '' || name === '.') continue;
    at = name === '..' ? path.dirname(realOf(at) ?? at) : path.join(at, name);
    make(at);
  }
  return at;
}

/** A fresh directory name under `links/` (or `ws/tools/` for a workspace root). */
function freshTarget(rng: Rng, c: LinkContext, kind: PlaceKind, inWorkspace: boolean): string {
  const base = inWorkspace ? path.join(c.ws, 'tools') : path.join(c.root, 'links');
  for (let n = 0; ; n++) {
    const p = path.join(base, `${kind}-${n}`);
    if (exists(p) === undefined) return rng.bool(0.3) ? path.join(p, 'inner') : p;
  }
}

/**
 * How a link reaches its target: straight there; through a second link (`chain`: `.codewhale ->
 * ../links/via-0`, `links/via-0 -> <target>`); through a link to the folder that holds the target
 * (`inner`: `.codewhale -> ../links/via-0/cw`); or through a link to a folder beside the target, then
 * `..` (`dotdot`: `.codewhale -> ../links/via-0/../b`, `links/via-0 -> <folder>/a0`, which the kernel
 * reads as `<folder>/b` and a lexical fold as `links/b`).
 */
type Route = 'direct' | 'chain' | 'inner' | 'dotdot';

/** The name of the target below its folder, for a route whose link on the way leads to that folder (or beside it). */
const LEAF: Readonly<Record<Route, string | undefined>> = {
  direct: undefined,
  chain: undefined,
  inner: 'cw',
  dotdot: 'b',
};

function pickRoute(rng: Rng): Route {
  return rng.weighted<Route>([
    [6, 'direct'],
    [2, 'chain'],
    [1, 'inner'],
    [1, 'dotdot'],
  ]);
}

/** `dir/<prefix><n>` for the first `n` that names nothing yet. */
function freshName(dir: string, prefix: string): string {
  for (let n = 0; ; n++) {
    const p = path.join(dir, `${prefix}${n}`);
    if (exists(p) === undefined) return p;
  }
}

/**
 * Makes the way of `route` from a link at `at` to `target` (its `LEAF` already in it) and returns the
 * text of that link; `note` gets a line for each entry made on the way. A route through a link on the
 * way also makes a directory of its shape elsewhere, for that link to be led to later (`ln -sfn
 * links/altway-… links/via-0`): `links/alt-<kind>-c<n>` holding a unit (so `directoriesOf` finds it
 * as it finds the others), `links/altway-<kind>-<n>/cw`, or `links/altway-<kind>-<n>/{a0,b}`.
 */
function lead(
  rng: Rng,
  c: LinkContext,
  route: Route,
  kind: PlaceKind,
  at: string,
  target: string,
  note: (line: string) => void,
): string {
  if (route === 'direct') return linkText(rng, at, target);
  const links = path.join(c.root, 'links');
  fs.mkdirSync(links, { recursive: true });
  const via = freshName(links, 'via-');
  const alt = freshName(links, route === 'chain' ? `alt-${kind}-c` : `altway-${kind}-`);
  const unit = `r${path.basename(via).slice('via-'.length)}`;
  const rel = (p: string) => path.relative(c.root, p);
  let viaTo: string;
  let after = '';
  if (route === 'chain') {
    viaTo = target;
    writeAll(alt, contentOf(kind, unit));
  } else if (route === 'inner') {
    viaTo = path.dirname(target);
    after = `/${LEAF.inner}`;
    writeAll(path.join(alt, LEAF.inner as string), contentOf(kind, unit));
  } else {
    viaTo = path.join(path.dirname(target), 'a0');
    after = `/../${LEAF.dotdot}`;
    fs.mkdirSync(viaTo, { recursive: true });
    fs.mkdirSync(path.join(alt, 'a0'), { recursive: true });
    writeAll(path.join(alt, LEAF.dotdot as string), contentOf(kind, unit));
  }
  fs.symlinkSync(linkText(rng, via, viaTo), via);
  note(`${rel(via)} -> ${rel(viaTo)} (a link on the way, ${route}${nowhere(viaTo)})`);
  note(`${rel(alt)} (for ${rel(via)} to be led to later)`);
  return `${linkText(rng, at, via)}${after}`;
}

/** For a line of `arrangeLinks`: whether `target` is no directory yet. */
function nowhere(target: string): string {
  return isDirectory(target) ? '' : ', leads nowhere';
}

/** Where a route puts the target: `fresh`, or its `LEAF` below it. */
function routeTarget(route: Route, fresh: string): string {
  const leaf = LEAF[route];
  return leaf === undefined ? fresh : path.join(fresh, leaf);
}

/** The user skill roots Eva reads under the home (eva.md §1.3). */
function userSkillRoots(c: LinkContext): string[] {
  return ['.codex', '.agents'].map((d) => path.join(c.home, d, 'skills'));
}

/**
 * Makes one to three links an agent follows, in the tree as the input left it: a workspace's
 * `.codewhale` or `.rivumi` moved behind a link (or made, or a link that leads nowhere yet),
 * Codewhale's home a link (to the input's user bundles, moved, or to fresh ones, or nowhere),
 * Eva's `~/.codex` or `~/.agents` moved behind a link, a user skill folder that is a link (to a
 * skill, to an empty folder, or nowhere); each straight to its target or, now and then, by a way
 * with another link on it (`Route`); and now and then another directory of the same kind
 * for a link to be led to later. Returns Codewhale's home for the index (`cwhome` when it made
 * that link) and a line per link, for a failure's detail.
 */
export function arrangeLinks(rng: Rng, c: LinkContext): { codewhaleHome: string | null; made: string[] } {
  const made: string[] = [];
  let codewhaleHome = c.codewhaleHome;
  const rel = (p: string) => path.relative(c.root, p);
  /** Puts a link at `at` to a target of `kind`: what is there moved behind it, fresh content, or nothing yet. */
  const link = (at: string, kind: PlaceKind, inWorkspace: boolean) => {
    const now = exists(at);
    if (now === 'link' || now === 'other') return;
    const route = pickRoute(rng);
    const target = routeTarget(route, freshTarget(rng, c, kind, inWorkspace && rng.bool(0.4)));
    const mode =
      now === 'dir' && rng.bool(0.7)
        ? 'moved'
        : rng.weighted<'fresh' | 'empty' | 'dangling'>([
            [6, 'fresh'],
            [2, 'empty'],
            [2, 'dangling'],
          ]);
    if (mode === 'dangling' && now === 'dir') return;
    if (!staysInside(c.root, target) || !staysInside(c.root, at)) return;
    try {
      if (mode === 'moved') {
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.renameSync(at, target);
      } else if (mode === 'fresh') writeAll(target, contentOf(kind, `w${made.length}`));
      // A directory with nothing the agent reads yet (`~/.codex` with no `skills/`): a unit added later must be seen.
      else if (mode === 'empty') fs.mkdirSync(target, { recursive: true });
      if (now === 'dir' && mode !== 'moved') fs.rmSync(at, { recursive: true });
      fs.mkdirSync(path.dirname(at), { recursive: true });
      const lines: string[] = [];
      const text = lead(rng, c, route, kind, at, target, (line) => lines.push(line));
      fs.symlinkSync(text, at);
      made.push(`${rel(at)} -> ${rel(target)} (${mode}, ${route} ${JSON.stringify(text)}${nowhere(target)})`, ...lines);
    } catch {
      // a way the input's ops made impassable (a file where a directory goes): no link there
    }
  };
  const arrangements = rng.range(1, 3);
  for (let i = 0; i < arrangements; i++) {
    const which = rng.weighted<string>([
      [3, 'workspace-codewhale'],
      [2, 'workspace-rivumi'],
      [3, 'codewhale-home'],
      [c.evaProject ? 3 : 0, 'eva-dot'],
      [c.evaProject ? 4 : 0, 'skill-folder'],
    ]);
    if (which === 'workspace-codewhale') link(path.join(c.ws, '.codewhale'), 'codewhale', true);
    else if (which === 'workspace-rivumi') link(path.join(c.ws, '.rivumi'), 'rivumi', true);
    else if (which === 'codewhale-home') {
      // A home of its own, so Eva's stays where it is: the input's user bundles moved behind it, or fresh ones.
      const home = path.join(c.root, LINKED_CODEWHALE_HOME);
      // A home that is a link already (codewhaleLinkedRoot.ts) is kept as the input made it.
      if (exists(home) !== undefined || (codewhaleHome !== null && exists(codewhaleHome) === 'link')) continue;
      const plugins = codewhaleHome === null ? undefined : path.join(codewhaleHome, 'plugins');
      const route = pickRoute(rng);
      const target = routeTarget(route, freshTarget(rng, c, 'codewhale', false));
      if (!staysInside(c.root, target)) continue;
      try {
        if (plugins !== undefined && exists(plugins) === 'dir' && rng.bool(0.7)) {
          fs.mkdirSync(target, { recursive: true });
          fs.renameSync(plugins, path.join(target, 'plugins'));
        } else if (rng.bool(0.7)) writeAll(target, contentOf('codewhale', `w${made.length}`));
        else if (rng.bool(0.5)) fs.mkdirSync(target, { recursive: true });
        const lines: string[] = [];
        const text = lead(rng, c, route, 'codewhale', home, target, (line) => lines.push(line));
        fs.symlinkSync(text, home);
        codewhaleHome = home;
        made.push(
          `${rel(home)} -> ${rel(target)} (Codewhale's home, ${route} ${JSON.stringify(text)}${nowhere(target)})`,
          ...lines,
        );
      } catch {
        // as above
      }
    } else if (which === 'eva-dot') link(path.join(c.home, rng.pick(['.codex', '.agents'])), 'eva-dot', false);
    else {
      const roots = userSkillRoots(c).filter((r) => !fs.existsSync(r) || isDirectory(r));
      if (roots.length) link(path.join(rng.pick(roots), `lk${i}`), 'skill-folder', false);
    }
  }
  // Another directory of a kind linked, for a link to be led to later (`ln -sfn`).
  for (let i = 0, n = rng.int(3); i < n; i++) {
    const kind = rng.pick<PlaceKind>(['codewhale', 'rivumi', 'eva-dot', 'skill-folder']);
    const target = path.join(c.root, 'links', `alt-${kind}-${i}`);
    if (exists(target) !== undefined || !staysInside(c.root, target)) continue;
    writeAll(target, contentOf(kind, `alt${i}`));
    made.push(`${rel(target)} (a ${kind} directory no link leads to yet)`);
  }
  return { codewhaleHome, made };
}

/**
 * The places the agents read through that are links now, in a fixed order, then the links met on
 * their ways (each once, inside the input root), with the rest of the way after each.
 */
export function linkedPlaces(c: LinkContext, codewhaleHome: string | null): Place[] {
  const places: Place[] = [
    { kind: 'codewhale', role: 'workspace .codewhale', at: path.join(c.ws, '.codewhale') },
    { kind: 'rivumi', role: 'workspace .rivumi', at: path.join(c.ws, '.rivumi') },
  ];
  if (codewhaleHome !== null)
    places.push(
      { kind: 'codewhale', role: 'Codewhale home', at: codewhaleHome },
      { kind: 'codewhale-plugins', role: 'Codewhale user root', at: path.join(codewhaleHome, 'plugins') },
    );
  for (const d of ['.codex', '.agents']) places.push({ kind: 'eva-dot', role: `Eva ~/${d}`, at: path.join(c.home, d) });
  for (const root of userSkillRoots(c)) {
    let names: string[];
    try {
      names = fs.readdirSync(root).sort();
    } catch {
      continue;
    }
    for (const n of names) {
      const at = path.join(root, n);
      if (exists(at) !== 'link') continue;
      places.push({
        kind: 'skill-folder',
        role: pastEvaCap(at) ? 'Eva user skill folder past the cap' : 'Eva user skill folder',
        at,
      });
    }
  }
  const own = places.filter((p) => exists(p.at) === 'link');
  // The links met on their ways, after their own: `links/a` of `.codewhale -> ../links/a`, `links/a -> b`.
  const realRoot = realOf(c.root);
  const out = [...own];
  for (const place of own)
    for (const { entry, rest } of wayOf(place).links.slice(1))
      if (realRoot !== undefined && within(realRoot, entry) && !out.some((p) => p.at === entry))
        out.push({ kind: place.kind, role: `${place.role}, a link on its way`, at: entry, rest });
  return out;
}

/**
 * Whether a user skill folder lies past Eva's cap in its root (eva.md §1.3, §4.2 C0): at least 500
 * skill folders (not hidden, a directory, a link to one followed, holding a regular `SKILL.md` or a
 * link to one) before it in raw byte order. Eva lists such a folder `scan_limit_exceeded` exactly
 * when its `SKILL.md` is there, and never opens it: a `SKILL.md` made or removed behind its link adds
 * or drops an item, which the editor must see as any other (a role of its own, to group failures).
 */
function pastEvaCap(folder: string): boolean {
  const root = path.dirname(folder);
  const own = Buffer.from(path.basename(folder));
  let names: string[];
  try {
    names = fs.readdirSync(root);
  } catch {
    return false;
  }
  let before = 0;
  for (const n of names) {
    if (n.startsWith('.') || Buffer.compare(Buffer.from(n), own) >= 0) continue;
    try {
      if (fs.statSync(path.join(root, n)).isDirectory() && fs.statSync(path.join(root, n, 'SKILL.md')).isFile())
        before++;
    } catch {
      // no skill folder
    }
  }
  return before >= EVA_USER_CAP;
}

/**
 * Directories `place`'s link could be led to with what the agent reads at the end of its way: for a
 * place's own link, where the others of its kind lead and `links/alt-<kind>-*`; for a link on the way
 * with more of the way after it (`cw`, `../b`), the `links/altway-<kind>-*` made for that shape (or the
 * `a0` in one) where that rest leads to a directory.
 */
function directoriesOf(place: Place, places: readonly Place[], c: LinkContext): string[] {
  const out = new Set<string>();
  const links = path.join(c.root, 'links');
  let names: string[] = [];
  try {
    names = fs.readdirSync(links).sort();
  } catch {
    // no alternatives made
  }
  if (!place.rest) {
    for (const p of places) {
      if (p.kind !== place.kind || p.rest !== undefined) continue;
      const t = realOf(p.at);
      if (t !== undefined && isDirectory(t)) out.add(t);
    }
    for (const n of names) if (n.startsWith(`alt-${place.kind}-`)) out.add(path.join(links, n));
    return [...out];
  }
  for (const n of names) {
    if (!n.startsWith(`altway-${place.kind}-`)) continue;
    for (const d of [path.join(links, n), path.join(links, n, 'a0')])
      if (isDirectory(d) && walk(d, place.rest).resolved !== undefined) out.add(d);
  }
  return [...out];
}

/** Regular files below `dir` (no link followed below it), at most `limit`, in a fixed order. */
function filesBelow(dir: string, limit = 200): string[] {
  const out: string[] = [];
  const walk = (d: string, depth: number) => {
    let names: string[];
    try {
      names = fs.readdirSync(d).sort();
    } catch {
      return;
    }
    for (const n of names) {
      if (out.length >= limit) return;
      const p = path.join(d, n);
      const t = exists(p);
      if (t === 'dir' && depth < 6) walk(p, depth + 1);
      else if (t === 'other' && fs.lstatSync(p).isFile()) out.push(p);
    }
  };
  walk(dir, 0);
  return out;
}

/**
 * One change to a place that is a link, picked among those that fit the disk as it is now;
 * undefined when no place is a link. Never outside the input root, and never the workspace,
 * the home or the root itself removed. Behind a link that leads to the workspace folder, the
 * home or a folder above either (an op of the input can make one, `x -> ws`), only the one
 * `SKILL.md` of an Eva user skill folder is written or edited: Skillgate watches that one file
 * wherever the folder leads (userTreeWatches.ts `linkedFolderWatches`), and watches no such
 * folder recursively for what a link leads to, by design (`realUserTreesToWatch`: read at the
 * next re-check), so nothing else is changed there; the link itself led elsewhere is still
 * checked. A link met on another place's way is led elsewhere, its target made or removed; what
 * lies at the end of the way is changed through the place whose way it is.
 */
export function pickChange(
  rng: Rng,
  c: LinkContext,
  codewhaleHome: string | null,
  step: number,
): LinkChange | undefined {
  const places = linkedPlaces(c, codewhaleHome);
  const candidates: [number, () => LinkChange | undefined][] = [];
  const real = (k: string) => realOf(k) ?? k;
  // Never changed behind: the workspace folder, the home, and a folder above either.
  const folders = [c.ws, c.home].map(real);
  // Never removed, nor a directory above one: those, and where the harness keeps the trust store and the targets.
  const kept = [...folders, path.join(c.root, 'state'), path.join(c.root, 'links')].map(real);
  for (const place of places) {
    const leadsTo = realOf(place.at);
    candidates.push([
      3,
      () => {
        const others = directoriesOf(place, places, c).filter((d) => d !== leadsTo);
        const to = others.length && rng.bool(0.7) ? rng.pick(others) : freshTarget(rng, c, place.kind, false);
        return { how: 'repoint', place, to: linkText(rng, place.at, to) };
      },
    ]);
    // The first missing entry on the way, when no link after this one leads there (that link's place makes it).
    const way = wayOf(place);
    const missing = way.missing;
    if (missing !== undefined && way.links.length === 1 && staysInside(c.root, missing.entry))
      candidates.push([4, () => ({ how: 'create-target', place, target: missing.entry, rest: missing.rest })]);
    if (leadsTo === undefined || !isDirectory(leadsTo) || !staysInside(c.root, leadsTo)) continue;
    // What lies behind a link on another's way is changed through that other place.
    const own = place.rest === undefined;
    if (folders.some((k) => within(leadsTo, k))) {
      if (place.kind !== 'skill-folder' || !own) continue;
      const skill = path.join(leadsTo, 'SKILL.md');
      const there = exists(skill);
      if (there === undefined) candidates.push([4, () => ({ how: 'write-skill', place, file: skill })]);
      else if (there === 'other' && fs.lstatSync(skill).isFile())
        candidates.push([3, () => ({ how: 'edit', place, file: skill, append: rng.pick(['\nEdited.\n', 'x']) })]);
      continue;
    }
    if (!kept.some((k) => within(leadsTo, k)))
      candidates.push([1, () => ({ how: 'delete-target', place, target: leadsTo })]);
    if (!own) continue;
    if (place.kind === 'skill-folder' && exists(path.join(leadsTo, 'SKILL.md')) === undefined)
      candidates.push([4, () => ({ how: 'write-skill', place, file: path.join(leadsTo, 'SKILL.md') })]);
    const files = filesBelow(leadsTo);
    if (files.length)
      candidates.push([
        3,
        () => ({
          how: 'edit',
          place,
          file: rng.pick(files),
          append: rng.pick(['\nEdited.\n', '\n', 'x', '\u202e']),
        }),
      ]);
    candidates.push([2, () => ({ how: 'add', place, dir: leadsTo, name: `new${step}` })]);
  }
  if (!candidates.length) return undefined;
  return rng.weighted(candidates)();
}

/**
 * The highest entry on the way to `p` that is missing, or `p`: what a burst that writes `p`
 * (`mkdir -p` and a file) makes first, the one entry a watcher of its parent sees made.
 */
function topMissing(p: string): string {
  let top = p;
  while (exists(path.dirname(top)) === undefined && path.dirname(top) !== top) top = path.dirname(top);
  return top;
}

/** Removes `p` and all below it deepest first, as `rm -rf` does, handing each entry to `removed` once it is gone. */
function removeTree(p: string, removed: (p: string) => void): void {
  if (exists(p) === 'dir') for (const n of fs.readdirSync(p).sort()) removeTree(path.join(p, n), removed);
  fs.rmSync(p, { force: true, recursive: true });
  removed(p);
}

/**
 * Makes the change on disk, handing each entry it touches to `touched` as a file watcher sees it,
 * at the moment it does: `ln -sfn` makes a link under a name of its own and renames it over the old
 * one (two entries); `rm -rf` removes each entry, deepest first, while the directories above it still
 * stand (unlink(2) and rmdir(2) one at a time, each an inotify event of its directory's); a tree made
 * in one burst (`git clone`, `mkdir -p` and files) is seen by its top entry alone, once made (VS Code's
 * watcher misses what is made inside a new directory before it watches it: flows/subtreeWatchers.ts);
 * a file written or appended to, by its own name. A way the file system refuses leaves what it did so far.
 */
export function applyChange(change: LinkChange, touched: (p: string) => void): void {
  const burst = (dir: string, files: Readonly<Record<string, string>>) => {
    const tops = new Set(Object.keys(files).map((rel) => topMissing(path.join(dir, rel))));
    writeAll(dir, files);
    for (const t of tops) touched(t);
  };
  try {
    switch (change.how) {
      case 'repoint': {
        const fresh = `${change.place.at}.watch-new`;
        fs.symlinkSync(change.to, fresh);
        touched(fresh);
        fs.renameSync(fresh, change.place.at);
        touched(fresh);
        touched(change.place.at);
        return;
      }
      case 'create-target': {
        const made: string[] = [];
        const end = makeWay(change.target, change.rest ?? '', (p) => made.push(p));
        const unit = contentOf(change.place.kind, 'made');
        // The unit is seen by its own top entry only where the way ends in a folder that was there before.
        const tops = Object.keys(unit)
          .map((rel) => topMissing(path.join(end, rel)))
          .filter((top) => !made.some((m) => within(m, top)));
        writeAll(end, unit);
        for (const p of new Set([...made, ...tops])) touched(p);
        return;
      }
      case 'delete-target':
        return removeTree(change.target, touched);
      case 'write-skill':
        return burst(path.dirname(change.file), { [path.basename(change.file)]: skillText('written') });
      case 'edit':
        fs.appendFileSync(change.file, change.append);
        return touched(change.file);
      case 'add':
        return burst(change.dir, contentOf(change.place.kind, change.name));
    }
  } catch {
    // kept as it is: the check compares whatever the disk holds now
  }
}

/** The change in words, paths relative to the root. */
export function changeText(change: LinkChange, root: string): string {
  const rel = (p: string) => path.relative(root, p);
  const where = `${rel(change.place.at)} (${change.place.role})`;
  switch (change.how) {
    case 'repoint':
      return `ln -sfn ${JSON.stringify(change.to)} ${where}`;
    case 'create-target': {
      const after = change.rest ? ` and ${JSON.stringify(change.rest)} after it` : '';
      return `the target ${rel(change.target)}${after} of ${where} made, with a unit in it`;
    }
    case 'delete-target':
      return `rm -rf ${rel(change.target)}, the target of ${where}`;
    case 'write-skill':
      return `${rel(change.file)} written behind ${where}`;
    case 'edit':
      return `${JSON.stringify(change.append)} appended to ${rel(change.file)} behind ${where}`;
    case 'add':
      return `a unit ${change.name} added in ${rel(change.dir)} behind ${where}`;
  }
}
