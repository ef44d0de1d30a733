// tsm watch: index, then keep the index in step with the vault until SIGINT/SIGTERM/SIGHUP.
import { tsmDir } from '../vault/config.js';
import { claimWatcher, removeWatcherPid, stalePidAdvice, watcherPidFile } from '../vault/watcher-pid.js';
import { formatBatchLine, formatInitialLine } from '../watch/report.js';
import { watchVault, WatchError } from '../watch/watch-vault.js';
import { configFrom } from './args.js';
import { progressBar } from './progress.js';
import { onStopSignals, stopExitCode } from '../core/signals.js';
import { UserError } from './run.js';
import { writeErr } from './stdio.js';
import { oneLine } from '../text/controls.js';
import { count } from '../text/count.js';

export async function run(argv: Record<string, unknown>): Promise<void> {
  // Checked against its range (0 to 60000) by numberOption (src/cli/options.ts).
  const debounceMs = Math.round((argv.debounce as number | undefined) ?? 150);
  const cfg = configFrom(argv, { cwdIsVault: true });
  const dir = tsmDir(cfg);
  // Claimed at once (O_EXCL), not looked at and then written: two started together both ran (watcher-pid.ts).
  const other = await claimWatcher(dir);
  if (other === 'busy') {
    throw new UserError(`another tsm is claiming ${watcherPidFile(dir)} for ${cfg.vault}; try again in a moment`);
  }
  if (other !== null) {
    throw new UserError(`a watcher already runs for ${cfg.vault} (pid ${other}); stop it first, or, ${stalePidAdvice(dir)}`);
  }

  // One line each, whatever a path or an error holds: a note named `a\ntsm watch: 9 removed.md` forged a line.
  const log = (line: string) => writeErr(`${oneLine(line)}\n`);
  const controller = new AbortController();
  const bar = progressBar('indexing');
  let ready = false;
  // Without a SIGHUP handler the watcher died mid-batch at its terminal's closing and left `.tsm/watch.pid` behind.
  // A second signal stops at once: each note is written in one transaction, so stopping now loses nothing
  // that the next `tsm index` will not redo. So does the first one before the watcher is ready: the first sync
  // is the whole vault, and finishing it kept a Ctrl-C waiting 9 s on the handbook (a fresh index), where
  // `tsm index` stops at once; what it wrote stays, and the next `tsm watch` or `tsm index` goes on from there.
  const offSignals = onStopSignals(
    (name) => {
      if (!ready) {
        bar.end();
        log(`tsm watch: ${name} before the first sync ended: stopping now (the next tsm watch or tsm index goes on from what it wrote)`);
        removeWatcherPid(dir); // only if it names this process
        process.exit(stopExitCode(name, true));
      }
      log(`tsm watch: ${name}: finishing the batch in hand, then stopping (again to stop at once)`);
      controller.abort();
    },
    () => removeWatcherPid(dir), // only if it names this process
  );

  try {
    await watchVault(cfg, {
      debounceMs,
      poll: Boolean(argv.poll),
      signal: controller.signal,
      // Also when it could not be written now (a full disk): the watcher writes it once it can.
      pidDir: dir,
      onInitialProgress: (done, total) => {
        if (total >= 50) bar.update(done, total);
      },
      onReady: ({ notes, polling, initial }) => {
        ready = true;
        bar.end();
        const s = initial;
        if (s.added + s.updated + s.removed + s.skipped > 0) log(formatInitialLine(s));
        log(`tsm watch: watching ${cfg.vault} (${count(notes, 'note')}${polling ? ', polling' : ''})`);
      },
      onBatch: (report) => log(formatBatchLine(report)),
      onNotice: (message) => log(`tsm watch: ${message}`),
    });
    log('tsm watch: stopped');
  } catch (err) {
    bar.end();
    if (err instanceof WatchError) throw new UserError(err.message);
    throw err;
  } finally {
    offSignals();
    removeWatcherPid(dir); // only if it names this process
    // Everything is closed; should a stray handle (a worker thread, a library's timer) remain, do not hang.
    setTimeout(() => process.exit(), 2000).unref();
  }
}
