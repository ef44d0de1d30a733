// What kind of thing is at a path, asked before opening it. Opening a FIFO blocks the whole process
// until some other process opens its other end (a JS timer cannot fire meanwhile), and a device or a
// socket is never a note, a config or an index. Everything tsm opens on a fast path asks here first.
import { lstatSync, statSync } from 'node:fs';

export type FileKind = 'absent' | 'file' | 'directory' | 'other';

/** The kind at `path`, following symlinks (`lstat: true` looks at the link itself: a link is 'other'). */
export function fileKind(path: string, opts: { lstat?: boolean } = {}): FileKind {
  let st;
  try {
    st = opts.lstat ? lstatSync(path) : statSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'absent' : 'other';
  }
  if (st.isFile()) return 'file';
  if (st.isDirectory()) return 'directory';
  return 'other';
}

/** Device and inode of a file, or null when it does not exist: tells a replaced file from the same one. */
export function fileIdentity(path: string): string | null {
  try {
    const st = statSync(path);
    return `${st.dev}:${st.ino}`;
  } catch {
    return null;
  }
}
