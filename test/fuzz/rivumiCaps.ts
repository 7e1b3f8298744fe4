import type { Rng } from './random';
import { byCodePoints, surrogateEscaped } from './pythonOrder';
import { fileEntry, shapePath, type Shape, type ShapeEntry } from './shapeTree';
import type { ShapeFate } from './shapeFates';

/**
 * A `.rivumi/` tree at Rivumi's caps (rivumi.md §3.2, §5.4, §5.5, §6, §7.1): 14 to 18 project
 * skills, 1 to 3 or 15 to 17 plugin manifests, plugin skills that cross the total of 16, so the
 * cut falls on each list and between project and plugin skills; names whose Python order
 * (pythonOrder.ts) is neither byte nor UTF-16 order, so the cut falls elsewhere by those;
 * plugin skill references in each form Rivumi resolves (`x.md`, `./x.md`, `sub/x.md`, through a
 * directory link inside `.rivumi/plugins`, a path listed twice, one file of two plugins), and
 * rarely one spelled with an escaped lone surrogate (`\udcff`, the file's byte 0xFF to
 * `os.fsencode`), which fails its manifest: the path field is a length-constrained `str`, and
 * pydantic-core validates such a field through `PyString::to_str`, which refuses a lone
 * surrogate (`string_unicode`, pydantic-core tests/validators/test_string.py
 * `test_unicode_error`); and at times one defect right at a cut (the last file read, or the
 * first one never read), which fails the whole load or nothing.
 */

const MAX_SKILLS = 16; // skills.py MAX_SKILLS: project and plugin skills together
const MAX_PLUGINS = 16; // plugins.py MAX_PLUGINS: manifests past it are never read

/**
 * Leading bytes whose orders disagree: bytes, UTF-16 units and code points after surrogateescape.
 * U+FF01 sorts after U+1F600 by UTF-16 units, before it by code points; `é` (C3 A9) after byte
 * 0xC3 (U+DCC3) by bytes, before it by code points; U+E000 (EE 80 80) before byte 0xFF (U+DCFF)
 * by bytes, after it by code points.
 */
const TEXT_LEADS: readonly Buffer[] = ['a', 'B', '_', '.h', 'z', '\u00e9', '\uff01', '\u{1f600}', '\ue000'].map((t) =>
  Buffer.from(t),
);
/** Names that are not UTF-8: listed with lone surrogates, and a skill's `source` then fails its record. */
const RAW_LEADS: readonly Buffer[] = [Buffer.from([0xff]), Buffer.from([0xc3]), Buffer.from([0xed, 0xa0, 0x80])];

type Defect = 'frontmatter' | 'manifest-key' | 'missing-skill' | 'surrogate-path' | 'source-not-utf8' | 'not-regular';

/** What a listed name that is no regular file is instead (rivumi.md §2: the glob lists it; §3.3, §5.4: reading it fails). */
type Junk = 'dir' | 'dangling' | 'fifo';

interface SkillFile {
  /** `.rivumi/…`-relative raw name, as on disk (through no link). */
  readonly real: Buffer;
  readonly name: string;
  defect?: Defect;
  readonly junk?: Junk;
}

interface Reference {
  /** As written in the manifest. */
  readonly path: string;
  /** The file it resolves to (undefined: missing). */
  readonly file: SkillFile | undefined;
}

interface Plugin {
  readonly fileName: Buffer;
  readonly name: string;
  readonly refs: Reference[];
  defect?: Defect;
  readonly junk?: Junk;
}

function skillText(f: SkillFile): string {
  // rivumi.md §3.4: an unknown front matter key fails the file, and with it the load.
  return f.defect === 'frontmatter'
    ? `---\nname: ${f.name}\nbogus: x\n---\nBody.\n`
    : `---\nname: ${f.name}\ndescription: Skill ${f.name}.\n---\nBody of ${f.name}.\n`;
}

function manifestText(p: Plugin): string {
  const doc: Record<string, unknown> = {
    name: p.name,
    skills: p.refs.map((r) => ({ path: r.path })),
  };
  // rivumi.md §5.2: the manifest is a closed object.
  if (p.defect === 'manifest-key') doc.bogus = 1;
  // JSON.stringify writes a lone surrogate as `\udcXX`, which Python's json reads back as that code point.
  return JSON.stringify(doc, null, 2);
}

function ordered<T>(list: readonly T[], name: (t: T) => Buffer): T[] {
  return [...list].sort((a, b) => byCodePoints(surrogateEscaped(name(a)), surrogateEscaped(name(b))));
}

export function generateRivumiCaps(rng: Rng): Shape {
  // A skill file named with bytes that are not UTF-8 fails the skill record's `source` (a length-
  // constrained str, as the surrogate path above): rare, so that a load at the cap mostly succeeds.
  const lead = (raw: number) => (rng.bool(raw) ? rng.pick(RAW_LEADS) : rng.pick(TEXT_LEADS));
  const projectCount = rng.weighted([
    [2, 0],
    [1, 1],
    [2, 14],
    [3, 15],
    [3, 16],
    [3, 17],
    [1, 18],
  ]);
  const project: SkillFile[] = Array.from({ length: projectCount }, (_, i) => {
    const first = lead(0.02);
    return {
      real: Buffer.concat([Buffer.from('skills/'), first, Buffer.from(`-s${i}.md`)]),
      name: `s${i}`,
      ...(RAW_LEADS.includes(first) ? { defect: 'source-not-utf8' as const } : {}),
    };
  });
  const junk = (): Junk =>
    rng.weighted<Junk>([
      [3, 'dir'],
      [2, 'dangling'],
      [1, 'fifo'],
    ]);
  // At times a listed name that is no regular file: it takes a place in the order, and fails the load if read.
  if (projectCount && rng.bool(0.25))
    project.push({
      real: Buffer.concat([Buffer.from('skills/'), lead(0), Buffer.from('-junk.md')]),
      name: 'junk',
      defect: 'not-regular',
      junk: junk(),
    });
  const pluginCount = rng.weighted([
    [3, 1],
    [2, 2],
    [1, 3],
    [2, 15],
    [2, 16],
    [2, 17],
  ]);
  const shared: SkillFile[] = [];
  const plugins: Plugin[] = [];
  const links = new Set<string>();
  for (let j = 0; j < pluginCount; j++) {
    const refs: Reference[] = [];
    let defect: Defect | undefined;
    const count = rng.weighted([
      [3, 0],
      [5, 1],
      [2, 2],
      [1, pluginCount <= 3 ? 9 : 3],
    ]);
    for (let k = 0; k < count; k++) {
      const name = `q${j}-${k}`;
      const form = rng.weighted<string>([
        [15, 'plain'],
        [3, 'dot'],
        [3, 'sub'],
        [3, 'link'],
        [1, 'escaped'],
        [refs.length ? 3 : 0, 'again'],
        [shared.length ? 3 : 0, 'shared'],
      ]);
      if (form === 'again') {
        refs.push(rng.pick(refs));
        continue;
      }
      if (form === 'shared') {
        const file = rng.pick(shared);
        refs.push({
          path: surrogateEscaped(file.real.subarray('plugins/'.length)),
          file,
        });
        continue;
      }
      if (form === 'link') {
        // rivumi.md §5.3: resolved following links, inside the repository, a regular file; the
        // skill loader looks at the last component only, so Rivumi loads it.
        const file: SkillFile = {
          real: Buffer.from(`plugins/real/${name}.md`),
          name,
        };
        shared.push(file);
        links.add('plugins/lnk');
        refs.push({ path: `lnk/${name}.md`, file });
        continue;
      }
      const rel =
        form === 'escaped'
          ? Buffer.concat([Buffer.from([0xff]), Buffer.from(`-${name}.md`)])
          : Buffer.from(form === 'sub' ? `sub/${name}.md` : `${name}.md`);
      const file: SkillFile = {
        real: Buffer.concat([Buffer.from('plugins/'), rel]),
        name,
      };
      if (form === 'escaped') defect = 'surrogate-path';
      else shared.push(file);
      refs.push({
        path: `${form === 'dot' ? './' : ''}${surrogateEscaped(rel)}`,
        file,
      });
    }
    plugins.push({
      // A manifest's own name is not validated as a str (rivumi.md §5.4: `source` is overwritten), so any bytes load.
      fileName: Buffer.concat([lead(0.15), Buffer.from(`-p${j}.json`)]),
      name: `p${j}`,
      refs,
      ...(defect ? { defect } : {}),
    });
  }

  if (rng.bool(0.25))
    plugins.push({
      fileName: Buffer.concat([lead(0), Buffer.from('-junk.json')]),
      name: 'junk',
      refs: [],
      defect: 'not-regular',
      junk: junk(),
    });

  // The order Rivumi reads in: project skills, manifests, then plugin skill references (§6 S2-S4).
  const projectOrder = ordered(project, (f) => f.real.subarray('skills/'.length));
  const pluginOrder = ordered(plugins, (p) => p.fileName);
  const read = pluginOrder.slice(0, MAX_PLUGINS);
  const refOrder = read.flatMap((p) => p.refs);

  // At times one defect at a cut: the last file read or the first never read, of one list.
  if (rng.bool(0.3)) {
    const total = Math.min(projectOrder.length, MAX_SKILLS);
    const lists: [string, number][] = [
      ['project', MAX_SKILLS],
      ['plugin', MAX_PLUGINS],
      ['reference', MAX_SKILLS - total],
    ];
    const [list, cut] = rng.pick(lists);
    const at = cut - 1 + rng.int(2);
    if (list === 'project' && projectOrder[at]) (projectOrder[at] as SkillFile).defect ??= 'frontmatter';
    if (list === 'plugin' && pluginOrder[at]) {
      const p = pluginOrder[at] as Plugin;
      if (rng.bool(0.5)) p.defect = 'manifest-key';
      else {
        // §5.3 stage 2: a reference to no file fails the manifest.
        p.refs.push({ path: `gone-${p.name}.md`, file: undefined });
        p.defect = 'missing-skill';
      }
    }
    const ref = refOrder[at];
    if (list === 'reference' && at >= 0 && ref?.file) ref.file.defect ??= 'frontmatter';
  }

  // §6: the skill load fails at the first bad file it reads; then nothing of it loads.
  const room = MAX_SKILLS - Math.min(projectOrder.length, MAX_SKILLS);
  const refsRead = read.flatMap((p) => p.refs.filter((r) => r.file)).slice(0, room);
  const fails =
    projectOrder.slice(0, MAX_SKILLS).some((f) => f.defect) ||
    read.some((p) => p.defect) ||
    refsRead.some((r) => r.file?.defect);

  const entries: ShapeEntry[] = [];
  const fates: ShapeFate[] = [];
  const at = (rel: Buffer) => shapePath('ws/.rivumi', rel);
  const junkEntry = (path: string, kind: Junk): ShapeEntry =>
    kind === 'dangling' ? { kind: 'link', path, target: 'gone' } : { kind, path };
  projectOrder.forEach((f, i) => {
    if (f.junk) return void entries.push(junkEntry(at(f.real), f.junk));
    entries.push(fileEntry(at(f.real), skillText(f)));
    fates.push({
      system: 'rivumi',
      kind: 'skill',
      path: shapePath('.rivumi', f.real),
      loaded: !fails && i < MAX_SKILLS,
    });
  });
  const files = new Map(
    plugins.flatMap((p) => p.refs.flatMap((r) => (r.file ? [[r.file.real.toString('latin1'), r.file]] : []))),
  );
  for (const f of files.values()) entries.push(fileEntry(at(f.real), skillText(f)));
  for (const l of links) entries.push({ kind: 'link', path: at(Buffer.from(l)), target: 'real' });
  let counted = Math.min(projectOrder.length, MAX_SKILLS);
  pluginOrder.forEach((p, j) => {
    const manifest = at(Buffer.concat([Buffer.from('plugins/'), p.fileName]));
    if (p.junk) return void entries.push(junkEntry(manifest, p.junk));
    entries.push(fileEntry(manifest, manifestText(p)));
    const within = j < MAX_PLUGINS;
    // A reference to no file is no skill: the manifest fails before any of its skills loads.
    const skills = within ? p.refs.filter((r) => r.file).map(() => !fails && counted++ < MAX_SKILLS) : undefined;
    fates.push({
      system: 'rivumi',
      kind: 'plugin',
      path: shapePath('.rivumi/plugins', p.fileName),
      loaded: !fails && within,
      ...(skills && !p.defect ? { skills } : {}),
    });
  });
  if (!projectOrder.length) entries.push({ kind: 'dir', path: 'ws/.rivumi/skills' });
  return { shape: 'rivumi-caps', entries, owns: ['ws/.rivumi'], fates };
}
