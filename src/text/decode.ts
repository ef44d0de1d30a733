// A note file's bytes as text. UTF-8 (a BOM removed) is what notes are; UTF-16 with a byte order mark is
// what Windows editors (Notepad's "Unicode", PowerShell's `>` before 7) write, and its BOM says so
// unambiguously. Without this, a UTF-16 note held NUL bytes and was skipped as a binary file.

/**
 * Why a file with NUL bytes is skipped. Before UTF-16 was read (a UTF-16 note is half NUL bytes), the
 * reason was OLD_BINARY_REASON: a file skipped with it is read again once (src/index/note-writer.ts fileStatesOf).
 */
export const BINARY_REASON = 'binary file (NUL bytes in the first 8 KB, and no UTF-16 byte order mark)';
export const OLD_BINARY_REASON = 'binary file (NUL bytes in the first 8 KB)';

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be';

/** The encoding a file's first bytes declare: a UTF-16 byte order mark, else UTF-8. */
export function encodingOf(bytes: Uint8Array): TextEncodingName {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}

const ENCODINGS: readonly TextEncodingName[] = ['utf-8', 'utf-16le', 'utf-16be'];
const strict = new Map(ENCODINGS.map((e) => [e, new TextDecoder(e, { fatal: true })]));
const lenient = new Map(ENCODINGS.map((e) => [e, new TextDecoder(e)]));

/**
 * The text of a note's bytes, its BOM removed; sequences that do not decode become U+FFFD and `valid` is
 * false.
 */
export function decodeNoteBytes(bytes: Uint8Array): { text: string; valid: boolean; encoding: TextEncodingName } {
  const encoding = encodingOf(bytes);
  try {
    return { text: strict.get(encoding)!.decode(bytes), valid: true, encoding };
  } catch {
    return { text: lenient.get(encoding)!.decode(bytes), valid: false, encoding };
  }
}
