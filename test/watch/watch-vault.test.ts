// watchVault in-process, on real temporary vaults with real file-system events: what it reports to
// its caller, how it stops, and what it does when the ground moves under it.
import { appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openReader } from '../../src/index/db.js';
import { search } from '../../src/search/search.js';
import { loadConfig, type TsmConfig } from '../../src/vault/config.js';
import type { BatchReport } from '../../src/watch/report.js';
import { watchVault, WatchError, type ReadyInfo } from '../../src/watch/watch-vault.js';
import { waitFor, writeFiles } from '../helpers/cli.js';

let cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

function setup(files: Record<string, string>) {
  const parent = mkdtempSync(join(tmpdir(), 'tsm-wv-'));
  cleanups.push(() => rmSync(parent, { recursive: true, force: true }));
  const vault = join(parent, 'vault');
  writeFiles(vault, { '.tsm/.keep': '', ...files });
  const cfg = loadConfig({ vaultFlag: vault, env: {} });
  return { parent, vault, cfg };
}

function start(cfg: TsmConfig, debounceMs = 50, eventQueue?: number) {
  const controller = new AbortController();
  const batches: BatchReport[] = [];
  const notices: string[] = [];
  let ready: ReadyInfo | null = null;
  const done = watchVault(cfg, {
    debounceMs,
    eventQueue,
    signal: controller.signal,
    onReady: (info) => (ready = info),
    onBatch: (b) => batches.push(b),
    onNotice: (m) => notices.push(m),
  });
  // A failing watch must not leave an unhandled rejection before the test looks at it.
  done.catch(() => {});
  cleanups.push(async () => {
    controller.abort();
    await done.catch(() => {});
  });
  return {
    controller,
    batches,
    notices,
    done,
    ready: async () => {
      await waitFor(() => ready !== null, 20_000);
      return ready as unknown as ReadyInfo;
    },
  };
}

function paths(cfg: TsmConfig, query: string): string[] {
  const db = openReader(cfg.db);
  try {
    return search(db, { query, limit: 100 }).hits.map((h) => h.path).sort();
  } finally {
    db.close();
  }
}

describe('watchVault', () => {
  it('reports the initial sync, then one batch per burst with its paths and counts', async () => {
    const { vault, cfg } = setup({ 'a.md': '# A\n\nalpha\n', 'b.md': '# B\n\nalpha\n' });
    const w = start(cfg);
    const info = await w.ready();
    expect(info).toMatchObject({ notes: 2, polling: false, initial: { added: 2 } });
    expect(paths(cfg, 'alpha')).toEqual(['a.md', 'b.md']);

    writeFileSync(join(vault, 'a.md'), '# A\n\nbeta\n');
    writeFileSync(join(vault, 'c.md'), '# C\n\nbeta\n');
    rmSync(join(vault, 'b.md'));
    await waitFor(() => w.batches.some((b) => b.summary.removed === 1) && paths(cfg, 'beta').length === 2, 10_000);
    const all = w.batches.flatMap((b) => b.paths).sort();
    expect([...new Set(all)]).toEqual(['a.md', 'b.md', 'c.md']);
    const sum = (k: 'added' | 'updated' | 'removed') => w.batches.reduce((n, b) => n + b.summary[k], 0);
    expect([sum('added'), sum('updated'), sum('removed')]).toEqual([1, 1, 1]);
    expect(paths(cfg, 'alpha')).toEqual([]);
    expect(w.notices).toEqual([]);
  });

  it('rescans for folder events and says why', async () => {
    const { vault, cfg } = setup({ 'dir/a.md': '# A\n\ngamma\n' });
    const w = start(cfg);
    await w.ready();
    renameSync(join(vault, 'dir'), join(vault, 'moved'));
    await waitFor(() => paths(cfg, 'gamma').join() === 'moved/a.md', 10_000);
    const rescans = w.batches.filter((b) => b.rescanReasons.length > 0);
    expect(rescans.length).toBeGreaterThan(0);
    expect(rescans.flatMap((b) => b.rescanReasons).join('\n')).toMatch(/folder (removed: dir|added: moved)/);
  });

  // What inotify dropped is never reported (30,000 notes written at once: 1,454 lost); a burst of half the
  // kernel's queue is followed by a rescan. The queue is made small here, so 30 notes make such a burst.
  it('rescans after a burst of events as large as the kernel may drop, and only then', async () => {
    const { vault, cfg } = setup({ 'dir/a.md': '# A\n' });
    const w = start(cfg, 200, 40);
    await w.ready();
    for (let i = 0; i < 30; i++) writeFileSync(join(vault, 'dir', `n${i}.md`), `# N${i}\n\nzeta\n`);
    await waitFor(() => paths(cfg, 'zeta').length === 30, 10_000);
    const reasons = w.batches.flatMap((b) => b.rescanReasons);
    expect(reasons.some((r) => /^\d+ file-system events at once, half or more of the 40 the system queues: some may be lost$/.test(r))).toBe(true);

    // The count starts again: one note saved is a batch of its path.
    const before = w.batches.length;
    await new Promise((r) => setTimeout(r, 400));
    writeFileSync(join(vault, 'dir', 'a.md'), '# A\n\neta\n');
    await waitFor(() => paths(cfg, 'eta').length === 1, 10_000);
    const after = w.batches.slice(before).filter((b) => b.summary.updated > 0);
    expect(after.map((b) => [b.paths, b.rescanReasons])).toEqual([[['dir/a.md'], []]]);
  });

  // Counted a turn of the event loop at a time, as the kernel hands its queue over: a log appended to steadily
  // (10,000 writes in 12 s) made a rescan when its events were counted in total until the next batch.
  it('makes no rescan of events that came a few at a time', async () => {
    const { vault, cfg } = setup({ 'a.md': '# A\n' });
    const w = start(cfg, 50, 40);
    await w.ready();
    for (let i = 0; i < 60; i++) {
      appendFileSync(join(vault, 'app.log'), `line ${i}\n`);
      await new Promise((r) => setTimeout(r, 5));
    }
    writeFileSync(join(vault, 'a.md'), '# A\n\ntheta\n');
    await waitFor(() => paths(cfg, 'theta').length === 1, 10_000);
    expect(w.batches.flatMap((b) => b.rescanReasons)).toEqual([]);
  });

  it('resolves once aborted, and never syncs after that', async () => {
    const { vault, cfg } = setup({ 'a.md': '# A\n' });
    const w = start(cfg);
    await w.ready();
    w.controller.abort();
    await expect(w.done).resolves.toBeUndefined();
    writeFileSync(join(vault, 'late.md'), '# Late\n\ndelta\n');
    await new Promise((r) => setTimeout(r, 300)); // nothing is listening any more; give it the chance to misbehave
    expect(paths(cfg, 'delta')).toEqual([]);
    expect(w.batches).toEqual([]);
  });

  it('returns at once when the signal is already aborted', async () => {
    const { cfg } = setup({ 'a.md': '# A\n' });
    const controller = new AbortController();
    controller.abort();
    await expect(watchVault(cfg, { debounceMs: 10, signal: controller.signal })).resolves.toBeUndefined();
  });

  it('rejects with WatchError when the vault folder disappears, and leaves the index alone', async () => {
    const { parent, vault } = setup({ 'a.md': '# A\n\nepsilon\n' });
    const cfg = loadConfig({ vaultFlag: vault, dbFlag: join(parent, 'index.db'), env: {} });
    const w = start(cfg);
    await w.ready();
    renameSync(vault, join(parent, 'moved-away'));
    await expect(w.done).rejects.toBeInstanceOf(WatchError);
    await expect(w.done).rejects.toThrow(/has disappeared/);
    expect(paths(cfg, 'epsilon')).toEqual(['a.md']);
  });

  it('rebuilds the index when its file is deleted under it', async () => {
    const { vault, cfg } = setup({ 'a.md': '# A\n\nzeta\n' });
    const w = start(cfg);
    await w.ready();
    for (const suffix of ['', '-wal', '-shm']) rmSync(cfg.db + suffix, { force: true });
    writeFileSync(join(vault, 'b.md'), '# B\n\nzeta\n');
    await waitFor(() => {
      try {
        return paths(cfg, 'zeta').length === 2;
      } catch {
        return false; // the index is being rebuilt
      }
    }, 10_000);
    expect(w.notices.join('\n')).toMatch(/index file .* was deleted or replaced; rebuilding/);
  });
});
