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

// Made on first use: the six decoders cost every search and prompt hook 0.1 ms at load (CPU profile of
// the handbook's hooks), and those read no note file.
type Decoder = InstanceType<typeof TextDecoder>;
const strict = new Map<TextEncodingName, Decoder>();
const lenient = new Map<TextEncodingName, Decoder>();

function decoder(cache: Map<TextEncodingName, Decoder>, encoding: TextEncodingName, fatal: boolean): Decoder {
  let d = cache.get(encoding);
  if (!d) cache.set(encoding, (d = new TextDecoder(encoding, { fatal })));
  return d;
}

/**
 * The text of a note's bytes, its BOM removed; sequences that do not decode become U+FFFD and `valid` is
 * false.
 */
export function decodeNoteBytes(bytes: Uint8Array): { text: string; valid: boolean; encoding: TextEncodingName } {
  const encoding = encodingOf(bytes);
  try {
    return { text: decoder(strict, encoding, true).decode(bytes), valid: true, encoding };
  } catch {
    return { text: decoder(lenient, encoding, false).decode(bytes), valid: false, encoding };
  }
}
