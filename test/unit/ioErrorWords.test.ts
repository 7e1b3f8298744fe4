import { strict as assert } from 'node:assert';
import { constants } from 'node:os';
import { osErrorWords } from '../../src/core/fs/strerror';
import { errorText } from '../../src/core/fs/safeFs';
import { rustFaultText } from '../../src/core/fs/rustIoErrorText';
import { pathlibRaises, pythonErrorText, pythonOsErrorText } from '../../src/core/systems/rivumi/pythonOsError';

/** A failed call's fault as libuv reports it on POSIX: the code and `-errno`. */
const fault = (code: keyof typeof constants.errno) => ({ code, errno: -(constants.errno[code] as number) });

/**
 * The words an agent prints for an OS error (strerror.ts): glibc's `strerror`, which Rust's
 * `io::Error` Display and Python's `OSError.__str__` both print, each in its own frame. A wrong
 * word here is a wrong word in every message of every agent that meets the error.
 */
describe('io error words: glibc strerror, in Rust’s and Python’s frames', () => {
  // glibc 2.36 `strerror` (the same words as CPython's `os.strerror` on that system).
  const GLIBC: Record<string, string> = {
    EPERM: 'Operation not permitted',
    ENOENT: 'No such file or directory',
    EIO: 'Input/output error',
    ENXIO: 'No such device or address',
    ENOMEM: 'Cannot allocate memory',
    EACCES: 'Permission denied',
    EBUSY: 'Device or resource busy',
    EEXIST: 'File exists',
    ENOTDIR: 'Not a directory',
    EISDIR: 'Is a directory',
    EINVAL: 'Invalid argument',
    ENFILE: 'Too many open files in system',
    EMFILE: 'Too many open files',
    ENAMETOOLONG: 'File name too long',
    ELOOP: 'Too many levels of symbolic links',
    EOVERFLOW: 'Value too large for defined data type',
    ESTALE: 'Stale file handle',
  };

  for (const [code, words] of Object.entries(GLIBC))
    it(`words ${code} as glibc does, with this platform's number`, () => {
      const f = fault(code as keyof typeof constants.errno);
      assert.deepEqual(osErrorWords(f), { errno: -f.errno, words });
      assert.equal(rustFaultText(f, 'node words'), `${words} (os error ${-f.errno})`);
    });

  it('knows no words for an error outside its table: the call’s own words stand', () => {
    assert.equal(osErrorWords(fault('EXDEV')), undefined);
    assert.equal(
      rustFaultText(fault('EXDEV'), 'EXDEV: cross-device link not permitted'),
      'EXDEV: cross-device link not permitted',
    );
    assert.equal(
      pythonOsErrorText(fault('EXDEV'), 'EXDEV: cross-device link not permitted', '/x'),
      'EXDEV: cross-device link not permitted',
    );
  });

  it('knows no words without a fault, or without a libuv error number (none, or not negative)', () => {
    assert.equal(osErrorWords(undefined), undefined);
    assert.equal(osErrorWords({ code: 'EACCES', errno: undefined }), undefined);
    assert.equal(osErrorWords({ code: 'EACCES', errno: 13 }), undefined);
    assert.equal(osErrorWords({ code: 'EACCES', errno: 0 }), undefined);
    assert.equal(rustFaultText(undefined, 'node words'), 'node words');
  });

  it('frames Python’s OSError with the number, the words and the repr of the file name, if any', () => {
    assert.equal(
      pythonOsErrorText(fault('EACCES'), 'node words', "/w/it's.md"),
      `[Errno 13] Permission denied: "/w/it's.md"`,
    );
    assert.equal(pythonOsErrorText(fault('EIO'), 'node words'), '[Errno 5] Input/output error');
    assert.equal(pythonOsErrorText(undefined, 'node words', '/x'), 'node words');
  });

  // CPython Objects/exceptions.c `OSError_str`: `[Errno %S] %S: %R -> %R` with two file names, `: %R` with one.
  it('words a thrown error of a call as Python’s OSError, with the path or the two paths the call named', () => {
    const thrown = (code: keyof typeof constants.errno, message: string, extra: object = {}) =>
      Object.assign(new Error(message), { ...fault(code), code, ...extra });
    assert.equal(
      pythonErrorText(thrown('EACCES', "EACCES: permission denied, mkdir '/r/p'", { path: '/r/p' })),
      "[Errno 13] Permission denied: '/r/p'",
    );
    assert.equal(
      pythonErrorText(
        thrown('EACCES', "EACCES: permission denied, rename '/r/a' -> '/r/b'", { path: '/r/a', dest: '/r/b' }),
      ),
      "[Errno 13] Permission denied: '/r/a' -> '/r/b'",
    );
    assert.equal(pythonErrorText(thrown('EIO', 'EIO: i/o error, write')), '[Errno 5] Input/output error');
    // Outside the table Node's words stand, and they name the paths already.
    assert.equal(
      pythonErrorText(
        thrown('EXDEV', "EXDEV: cross-device link not permitted, rename '/r/a' -> '/r/b'", {
          path: '/r/a',
          dest: '/r/b',
        }),
      ),
      'EXDEV: cross-device link not permitted',
    );
    const plain = new Error('not an OS error');
    assert.equal(pythonErrorText(plain), errorText(plain));
  });

  // CPython 3.11–3.13 pathlib `_IGNORED_ERRNOS = (ENOENT, ENOTDIR, EBADF, ELOOP)`: `exists()`,
  // `is_symlink()`, `is_file()` and `is_dir()` answer False on these, and raise any other.
  it('answers False where pathlib ignores the error, and raises any other', () => {
    for (const code of ['ENOENT', 'ENOTDIR', 'EBADF', 'ELOOP'] as const)
      assert.equal(pathlibRaises(fault(code)), false, code);
    for (const code of ['EACCES', 'EPERM', 'EIO', 'ENAMETOOLONG'] as const)
      assert.equal(pathlibRaises(fault(code)), true, code);
    assert.equal(pathlibRaises({ code: undefined, errno: undefined }), true);
    assert.equal(pathlibRaises(undefined), false);
  });
});
