// The server's view of the index: a read-only connection opened for each tool call and closed after.
// Opening costs about 0.4 ms (measured on the dev machine), far below a tool call's cost, and it means
// a rebuilt, replaced or newly created index is picked up without any bookkeeping.
import type { QueryVector } from '../embed/socket-protocol.js';
import { NoteReader } from '../index/note-reader.js';
import { withIndexReader } from '../index/open-reader.js';
import { tsmDir, type TsmConfig } from '../vault/config.js';
import type { ToolContext } from './tool.js';

export function createContext(
  cfg: TsmConfig,
  opts: { now?: () => Date; queryVector?: (text: string) => Promise<QueryVector | undefined>; detachHook?: ToolContext['detachHook'] } = {},
): ToolContext {
  return {
    cfg,
    now: opts.now ?? (() => new Date()),
    // withIndexReader closes the connection and turns SQLite errors into IndexErrors that name the fix.
    withIndex: (fn, foundNothing) => withIndexReader(cfg.db, (db) => fn(db, new NoteReader(db, cfg.db)), { tsmDir: tsmDir(cfg), vault: cfg.vault, foundNothing }),
    ...(opts.queryVector ? { queryVector: opts.queryVector } : {}),
    ...(opts.detachHook ? { detachHook: opts.detachHook } : {}),
  };
}
