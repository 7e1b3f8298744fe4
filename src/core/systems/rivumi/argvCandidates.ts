const DASH = 0x2d;
const EQUALS = 0x3d;

/**
 * The element's own candidates, then, when it holds whitespace or shell punctuation (an
 * inline script: `bash -c '. ./x.sh'`), those of each of its words.
 */
export function candidates(b: Buffer): Buffer[] {
  const out = optionCandidates(b);
  if (b.some((x) => WORD_BREAK.has(x))) for (const word of words(b)) out.push(...optionCandidates(word));
  return out;
}

/** The element itself unless it is an option; the text after its first `=`; a short option's attached value. */
function optionCandidates(b: Buffer): Buffer[] {
  const out: Buffer[] = [];
  if (b[0] !== DASH) out.push(b);
  const eq = b.indexOf(EQUALS);
  if (eq >= 0) out.push(b.subarray(eq + 1));
  else if (b[0] === DASH && b.length > 2 && b[1] !== DASH) out.push(b.subarray(2));
  return out;
}

/** Whitespace and the shell's punctuation: where a word of an inline script ends. */
const WORD_BREAK = new Set(Buffer.from(' \t\n\r\v\f;&|()<>`\'"'));

function words(b: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let i = 0; i <= b.length; i++) {
    if (i === b.length || WORD_BREAK.has(b[i] as number)) {
      if (i > start) out.push(b.subarray(start, i));
      start = i + 1;
    }
  }
  return out;
}
