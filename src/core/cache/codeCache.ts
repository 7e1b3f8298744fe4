import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import * as path from 'node:path';
import * as vm from 'node:vm';
import * as zlib from 'node:zlib';
import { ownAndPrivate, ownDirectory } from './privateToUser';

/**
 * The V8 code cache of the shared core bundle, for the CLI and the editor's index worker
 * (docs/code-cache.md); each face bundles its own copy of this module, since it must run
 * before dist/core.js loads (scripts/sharedCore.mjs). Node 20 has no
 * `module.enableCompileCache`: every process compiles dist/core.js again (about 60 ms of
 * a run's start). Here the core is compiled through `vm.Script` with the bytecode a
 * previous run left, and a run that had none leaves it once its command has run, so the
 * functions compiled lazily along the way are in it.
 *
 * Cached data is code: it is read only from a directory that is the user's own and not
 * writable by anyone else, from a file owned by the user, writable by nobody else and
 * linked once. Anything else about it — missing, foreign, corrupt, rejected by V8, a
 * failed write — makes the core compile as it would without a cache; it never fails a
 * command and never changes what it prints.
 */
export class CoreCodeCache {
  /** The script compiled from the core, and whether its data must be written after the run. */
  private compiled: { readonly script: vm.Script; readonly file: string; readonly key: string } | undefined;
  private stale = false;

  /** The user the cache must belong to; none (Windows: no owner to check) means no cache. */
  private readonly uid: number | null;
  /** Source maps are on (`--enable-source-maps`): Node maps only the stack traces of what it compiles itself, so no cache. */
  private readonly sourceMaps: boolean;
  /** V8 options the process set for itself after it started (`v8.setFlagsFromString`): part of the key. */
  private readonly v8Flags: readonly string[];

  constructor(
    /** The core bundle whose `require` this cache serves (dist/core.js beside the CLI). */
    private readonly coreFile: string,
    {
      uid = process.getuid?.() ?? null,
      sourceMaps = process.sourceMapsEnabled,
      v8Flags = [],
    }: { readonly uid?: number | null; readonly sourceMaps?: boolean; readonly v8Flags?: readonly string[] } = {},
  ) {
    this.uid = uid;
    this.sourceMaps = sourceMaps;
    this.v8Flags = v8Flags;
  }

  /**
   * Serves the core's next `require` from the code cache in `cacheDir` (the parse cache's
   * directory: `--cache-dir`, `$SKILLGATE_CACHE_DIR`, the per-user cache directory); null
   * (`--no-cache`, no home) means none.
   */
  install(cacheDir: string | null): void {
    const uid = this.uid;
    if (cacheDir === null || uid === null || this.sourceMaps) return;
    const proto = Module.prototype as unknown as { _compile: Compile };
    const original = proto._compile;
    const coreFile = this.coreFile;
    const wrapperOf = (content: string, filename: string) =>
      this.compile(content, filename, path.join(cacheDir, CODE_DIR), uid);
    // Only the core's own compile is served, once: every other module compiles as Node does.
    proto._compile = function (this: Module, content: string, filename: string): unknown {
      if (filename !== coreFile) return original.call(this, content, filename);
      proto._compile = original;
      const wrapper = wrapperOf(content, filename);
      if (!wrapper) return original.call(this, content, filename);
      return wrapper.call(this.exports, this.exports, createRequire(filename), this, filename, path.dirname(filename));
    };
  }

  /**
   * Writes the core's code when no usable one was read (none, foreign, corrupt or
   * rejected), after the command ran; never throws.
   */
  save(): void {
    const c = this.compiled;
    if (!c || !this.stale || this.uid === null) return;
    this.stale = false;
    const dir = path.dirname(c.file);
    const temp = `${c.file}.${process.pid}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`;
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (!ownDirectory(dir, this.uid)) return;
      const data = c.script.createCachedData();
      const header: Header = { magic: MAGIC, format: FORMAT, key: c.key, length: data.length, crc: zlib.crc32(data) };
      const bytes = Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`, 'utf8'), data]);
      const fd = fs.openSync(temp, 'wx', 0o600);
      try {
        for (let done = 0; done < bytes.length;) done += fs.writeSync(fd, bytes, done, bytes.length - done, done);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(temp, c.file);
      evictOldFiles(dir);
    } catch {
      try {
        fs.rmSync(temp, { force: true });
      } catch {
        // Nothing was written, or it cannot be removed: a later save removes it once stale.
      }
    }
  }

  /** The core's CommonJS wrapper, compiled with its cached code; undefined: compile it as usual. */
  private compile(content: string, filename: string, dir: string, uid: number): CommonJsWrapper | undefined {
    try {
      const key = cacheKey(content, this.v8Flags);
      const file = path.join(dir, `core-${key.slice(0, 32)}${SUFFIX}`);
      const cachedData = readEntry(file, dir, key, uid);
      // The wrapper on a line of its own, one line before the file's: positions in stack traces stay the file's.
      const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {\n${content}\n})`, {
        filename,
        lineOffset: -1,
        cachedData,
        importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
      });
      const wrapper = script.runInThisContext() as CommonJsWrapper;
      this.compiled = { script, file, key };
      this.stale = cachedData === undefined || script.cachedDataRejected === true;
      return wrapper;
    } catch {
      return undefined;
    }
  }
}

type Compile = (this: Module, content: string, filename: string) => unknown;
type CommonJsWrapper = (
  exports: unknown,
  require: NodeJS.Require,
  module: Module,
  filename: string,
  dirname: string,
) => unknown;

interface Header {
  readonly magic: string;
  readonly format: number;
  readonly key: string;
  readonly length: number;
  readonly crc: number;
}

const MAGIC = 'skillgate-code-cache';
const FORMAT = 1;
/** The code cache's own directory inside the cache directory. */
export const CODE_DIR = 'code';
const SUFFIX = '.code';
const TEMP_SUFFIX = '.tmp';
/** Code files kept: a few builds or Node versions used side by side. */
export const MAX_CODE_FILES = 4;
/** A temporary file this old was left by a writer that died before its rename. */
const STALE_TEMP_MS = 60 * 60 * 1000;

/**
 * What V8's data is valid for: the source itself (V8 checks only its length), Node's
 * version (V8's), the architecture, and V8's options: those it was started with and those
 * the process set since (`v8Flags`; a different flag hash is rejected, and keying on them
 * keeps one file per set instead of rewriting it).
 */
export function cacheKey(source: string, v8Flags: readonly string[] = []): string {
  const runtime = [process.version, process.arch, process.execArgv.join(' '), process.env.NODE_OPTIONS ?? ''];
  if (v8Flags.length > 0) runtime.push(v8Flags.join(' '));
  return createHash('sha256')
    .update(createHash('sha256').update(source).digest('hex'))
    .update(JSON.stringify(runtime))
    .digest('hex');
}

/**
 * The data stored under `key`, when the directory and the file are the user's own and
 * nobody else's to write, and the file is whole; otherwise undefined.
 */
function readEntry(file: string, dir: string, key: string, uid: number): Buffer | undefined {
  if (!ownDirectory(dir, uid)) return undefined;
  let fd: number;
  try {
    // Never through a link: the checks below are of the file opened.
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    const st = fs.fstatSync(fd);
    // A second link could be a name another user keeps for the same bytes.
    if (!st.isFile() || !ownAndPrivate(st, uid) || st.nlink !== 1) return undefined;
    const bytes = Buffer.allocUnsafe(st.size);
    let read = 0;
    while (read < bytes.length) {
      const n = fs.readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) return undefined;
      read += n;
    }
    return entryData(bytes, key);
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** The V8 data of a file's bytes: its header names this format and `key`, and the data has its length and CRC-32. */
function entryData(bytes: Buffer, key: string): Buffer | undefined {
  const newline = bytes.indexOf(0x0a);
  if (newline < 0) return undefined;
  let header: Partial<Header>;
  try {
    header = JSON.parse(bytes.toString('utf8', 0, newline)) as Partial<Header>;
  } catch {
    return undefined;
  }
  const data = bytes.subarray(newline + 1);
  return header !== null &&
    typeof header === 'object' &&
    header.magic === MAGIC &&
    header.format === FORMAT &&
    header.key === key &&
    header.length === data.length &&
    header.crc === zlib.crc32(data)
    ? data
    : undefined;
}

/** Keeps the directory bounded: the newest code files, and no temporary file a dead writer left. */
function evictOldFiles(dir: string): void {
  const now = Date.now();
  const files = fs
    .readdirSync(dir)
    .map((name) => ({ name, mtimeMs: fs.lstatSync(path.join(dir, name)).mtimeMs }))
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const f of files.filter((f) => f.name.endsWith(TEMP_SUFFIX) && now - f.mtimeMs > STALE_TEMP_MS))
    fs.rmSync(path.join(dir, f.name), { force: true });
  for (const f of files.filter((f) => f.name.endsWith(SUFFIX)).slice(MAX_CODE_FILES))
    fs.rmSync(path.join(dir, f.name), { force: true });
}
