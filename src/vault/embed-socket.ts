// `.tsm/run/embed.sock`: where a resident process with an embedding model (`tsm serve`, `tsm watch`) answers
// query vectors for this vault (src/embed/socket-*.ts). Here, in the vault layer with the other files of
// `.tsm/`, so `tsm search` can see whether one is there (a stat) without loading anything of src/embed/.
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { TSM_DIR } from './config.js';

/** sun_path is 108 bytes on Linux, 104 on macOS (with the terminating NUL). */
export const MAX_SOCKET_PATH = 103;

/**
 * The vault's socket; a vault whose path would make it longer than a Unix socket path may be uses a
 * folder of the user's own in the system's temporary folder (or in /tmp, when $TMPDIR's path is itself too
 * long for one), named by a hash of the vault's path.
 */
export function socketPath(vault: string): string {
  const inVault = join(vault, TSM_DIR, 'run', 'embed.sock');
  if (Buffer.byteLength(inVault) <= MAX_SOCKET_PATH) return inVault;
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  // Loaded here, not imported: node:crypto costs a fresh process ~2 ms, and every `tsm search` and hook
  // loads this module to stat the socket; only a vault with a long path needs the hash.
  const { createHash } = process.getBuiltinModule('node:crypto');
  const { tmpdir } = process.getBuiltinModule('node:os');
  const hash = createHash('sha256').update(vault).digest('hex').slice(0, 16);
  const inTmp = join(tmpdir(), `tsm-${uid}`, `${hash}.sock`);
  // A long $TMPDIR (a build sandbox's): the system cut the path at its limit and made the socket in some other
  // folder of that name's start, and the resident stopped at the chmod of the path it asked for.
  return Buffer.byteLength(inTmp) <= MAX_SOCKET_PATH || process.platform === 'win32' ? inTmp : join('/tmp', `tsm-${uid}`, `${hash}.sock`);
}

/**
 * Whether the file at a socket's path is a socket (false: a file, folder or FIFO in its place, which no
 * resident removes or listens on), or null when it cannot be told (gone, or not to be looked at).
 */
export function isSocketFile(path: string): boolean | null {
  try {
    return lstatSync(path).isSocket();
  } catch {
    return null;
  }
}
