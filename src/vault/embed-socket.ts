// `.tsm/run/embed.sock`: where a resident process with an embedding model (`tsm serve`, `tsm watch`) answers
// query vectors for this vault (src/embed/socket-*.ts). Here, in the vault layer with the other files of
// `.tsm/`, so `tsm search` can see whether one is there (a stat) without loading anything of src/embed/.
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TSM_DIR } from './config.js';

/** sun_path is 108 bytes on Linux, 104 on macOS (with the terminating NUL). */
const MAX_SOCKET_PATH = 103;

/**
 * The vault's socket; a vault whose path would make it longer than a Unix socket path may be uses a
 * folder of the user's own in the system's temporary folder, named by a hash of the vault's path.
 */
export function socketPath(vault: string): string {
  const inVault = join(vault, TSM_DIR, 'run', 'embed.sock');
  if (Buffer.byteLength(inVault) <= MAX_SOCKET_PATH) return inVault;
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  const hash = createHash('sha256').update(vault).digest('hex').slice(0, 16);
  return join(tmpdir(), `tsm-${uid}`, `${hash}.sock`);
}
