import * as fs from 'node:fs';
import { bytesText, textBytes } from './random';
import { join, type Op } from './mutations';
import { originalExecFileSync as execFileSync } from './spy';
import type { Lifecycle, ShapeFate } from './shapeFates';

/**
 * A shape written from scratch rather than mutated from a real bundle: a tree the agent's
 * own rules decide plainly (a cap reached exactly, a name met twice, a manifest found after
 * another name that is no file), written with the fate each item gets (shapeFates.ts).
 */
export interface Shape {
  readonly shape:
    | 'rivumi-caps'
    | 'rivumi-hooks'
    | 'codewhale-shadowing'
    | 'codewhale-enabled'
    | 'codewhale-duplicate-root'
    | 'codewhale-linked-root'
    | 'codewhale-kimi'
    | 'eva-duplicate-ids'
    | 'eva-user-cap'
    | 'eva-config-layers';
  /** Entries in the order they are made, parents first. */
  readonly entries: readonly ShapeEntry[];
  /**
   * The directories the fates depend on, root-relative in `bytesText` form: an op that
   * reaches into one or above it (or makes a sibling of one by copying it) voids the fates.
   */
  readonly owns: readonly string[];
  /**
   * Directories whose entries the fates depend on, but not the bytes of their files (Eva's user
   * skill folders, counted before any `SKILL.md` is read): an op that reaches one voids the fates
   * as `owns` does, unless it only rewrites a file's bytes.
   */
  readonly entriesOf?: readonly string[];
  readonly fates: readonly ShapeFate[];
  /** Trust and enable steps run after the first listing, in a trust store of their own, and the fates after them (shapeLifecycle.ts). */
  readonly lifecycle?: Lifecycle;
  /** Whether the fates need Codewhale's user bundles indexed (`--codewhale-home`). */
  readonly userBundles?: boolean;
  /** Codewhale's home, root-relative, when it is not `home` (the workspace opened at the home: `ws/.codewhale`; `cw`). */
  readonly codewhaleHome?: string;
  /** Workspace folders besides `ws`, root-relative, given after it (`withSecondFolder`, codewhaleLinkedRoot.ts). */
  readonly workspaces?: readonly string[];
}

/** One entry, root-relative, in `bytesText` form so that a name that is not UTF-8 survives JSON. */
export type ShapeEntry =
  | { readonly kind: 'file'; readonly path: string; readonly text: string }
  | { readonly kind: 'dir' | 'fifo'; readonly path: string }
  /** `target` as written in the link, relative to its directory. */
  | { readonly kind: 'link'; readonly path: string; readonly target: string };

/** A shape's path for `ShapeEntry`: parts joined by `/`, each raw. */
export function shapePath(...parts: readonly (string | Buffer)[]): string {
  return bytesText(join(...parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : p))));
}

/** A file entry: its content as bytes, in `bytesText` form. */
export function fileEntry(path: string, content: string | Buffer): ShapeEntry {
  return { kind: 'file', path, text: bytesText(typeof content === 'string' ? Buffer.from(content, 'utf8') : content) };
}

/** Writes a shape's entries under `root`, parents made as needed. */
export function writeShape(shape: Shape, root: string): void {
  const rootBytes = Buffer.from(root);
  for (const e of shape.entries) {
    const abs = join(rootBytes, textBytes(e.path));
    fs.mkdirSync(abs.subarray(0, abs.lastIndexOf(0x2f)), { recursive: true });
    if (e.kind === 'file') fs.writeFileSync(abs, textBytes(e.text));
    else if (e.kind === 'dir') fs.mkdirSync(abs, { recursive: true });
    else if (e.kind === 'link') fs.symlinkSync(textBytes(e.target), abs);
    else {
      // As mutations.ts makes one: mkfifo cannot spell a name that is not UTF-8, so it is renamed into place.
      const plain = `${root}/.fifo-${process.pid}`;
      execFileSync('mkfifo', [plain]);
      fs.renameSync(plain, abs);
    }
  }
}

/** `a` is `b`, lies under it, or above it, as paths of whole components. */
function related(a: Buffer, b: Buffer): boolean {
  const under = (x: Buffer, y: Buffer) =>
    x.length > y.length && x[y.length] === 0x2f && x.subarray(0, y.length).equals(y);
  return a.equals(b) || under(a, b) || under(b, a);
}

/** Ops that only rewrite the bytes of a regular file the generator found (mutations.ts), leaving every name as it was. */
const REWRITES: ReadonlySet<Op['op']> = new Set(['flip', 'insert', 'truncate', 'json', 'toml', 'yaml', 'frontmatter']);

/**
 * Whether an op reaches a shape: its path is an owned directory, in one or above one; a
 * copy's new sibling counts too (a copied bundle is a second bundle of the same name). In a
 * directory the shape owns the entries of only (`entriesOf`), an op that rewrites a file's bytes does not.
 */
export function touchesShape(op: Op, shape: Shape): boolean {
  const at = textBytes(op.path);
  const paths = [at];
  if (op.op === 'copy') paths.push(join(at.subarray(0, Math.max(0, at.lastIndexOf(0x2f))), textBytes(op.to)));
  const owned = [...shape.owns, ...(REWRITES.has(op.op) ? [] : (shape.entriesOf ?? []))];
  return owned.some((o) => paths.some((p) => related(p, textBytes(o))));
}
