// A note file's bytes as text. UTF-8 (a BOM removed) is what notes are; UTF-16 with a byte order mark is
// what Windows editors (Notepad's "Unicode", PowerShell's `>` before 7) write, and its BOM says so
// unambiguously. Without this, a UTF-16 note held NUL bytes and was skipped as a binary file.

/**
 * Why a file with NUL bytes is skipped. Before UTF-16 was read (a UTF-16 note is half NUL bytes), the
 * reason was the first of OLD_BINARY_REASONS, and before UTF-32 was the second: a file skipped with one is
 * read again once (src/index/note-writer.ts fileStatesOf).
 */
export const BINARY_REASON = 'binary file (NUL bytes in the first 8 KB, and no UTF-16 or UTF-32 byte order mark)';
export const OLD_BINARY_REASONS: readonly string[] = [
  'binary file (NUL bytes in the first 8 KB)',
  'binary file (NUL bytes in the first 8 KB, and no UTF-16 byte order mark)',
];

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'utf-32le' | 'utf-32be';

/**
 * The encoding a file's first bytes declare: a UTF-32 or UTF-16 byte order mark, else UTF-8. UTF-32 first: its
 * little-endian mark starts with UTF-16's, and read as UTF-16 (PowerShell's `Out-File -Encoding utf32`) a note
 * was a NUL between every two characters, indexed with no word of it found.
 */
export function encodingOf(bytes: Uint8Array): TextEncodingName {
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xfe && bytes[2] === 0 && bytes[3] === 0) return 'utf-32le';
  if (bytes.length >= 4 && bytes[0] === 0 && bytes[1] === 0 && bytes[2] === 0xfe && bytes[3] === 0xff) return 'utf-32be';
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}

/** UTF-32 (which TextDecoder does not read), its BOM removed; what is no code point (or a last partial unit) is U+FFFD. */
function decodeUtf32(bytes: Uint8Array, littleEndian: boolean): { text: string; valid: boolean } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts: string[] = [];
  let chunk: number[] = [];
  let valid = bytes.length % 4 === 0;
  for (let i = 4; i + 4 <= bytes.length; i += 4) {
    let cp = view.getUint32(i, littleEndian);
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
      cp = 0xfffd;
      valid = false;
    }
    chunk.push(cp);
    // fromCodePoint takes its arguments on the stack: a few thousand at a time.
    if (chunk.length === 4096) {
      parts.push(String.fromCodePoint(...chunk));
      chunk = [];
    }
  }
  if (chunk.length > 0) parts.push(String.fromCodePoint(...chunk));
  if (bytes.length % 4 !== 0) parts.push('\ufffd');
  return { text: parts.join(''), valid };
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
  if (encoding === 'utf-32le' || encoding === 'utf-32be') return { ...decodeUtf32(bytes, encoding === 'utf-32le'), encoding };
  try {
    return { text: decoder(strict, encoding, true).decode(bytes), valid: true, encoding };
  } catch {
    return { text: decoder(lenient, encoding, false).decode(bytes), valid: false, encoding };
  }
}
