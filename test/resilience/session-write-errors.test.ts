// A sessions folder (or a session note) tsm cannot write: `tsm ingest-session` exits 1 with one `tsm: …`
// line that names the fix, the Stop hook exits 0 at once with the reason in hook.log, and the ingest state
// is left as it was, so the first ingest after the fix writes the whole note, equal to a clean ingest.
// Before: the CLI printed `failed (EACCES: permission denied, open '…/.2026-….md.1234.ab.tmp')` on stdout
// and again on stderr, and hook.log took it for a bug (`Error: EACCES … (at writeFileSync (node:fs:…))`).
import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureText } from '../sessions/helpers.js';
import { runTsm, type RunAsOptions } from './processes.js';

const SID = '11111111-2222-4333-8444-555555555555';
const NOTE = 'sessions/2026-01-01-tsm-demo-11111111.md';
const lines = fixtureText('synthetic-session.jsonl').split('\n').filter((l) => l !== '');
const half = Math.floor(lines.length / 2);
const part = (from: number, to: number) => lines.slice(from, to).map((l) => l + '\n').join('');

// Permission bits do not stop root: as root, tsm runs as "nobody", whose writes they do stop.
const asRoot = process.getuid?.() === 0;
const run: RunAsOptions = asRoot ? { user: { uid: 65534, gid: 65534 } } : {};

let root: string;
let vault: string;
let transcript: string;
/** The note a clean ingest of the whole transcript writes. */
let clean: string;

const ingest = () => runTsm(['ingest-session', '--vault', vault, transcript], run);
const stop = () =>
  runTsm(['hook', '--vault', vault], { ...run, input: JSON.stringify({ hook_event_name: 'Stop', session_id: SID, transcript_path: transcript, cwd: vault }) });
const note = () => readFileSync(join(vault, NOTE), 'utf8');
const hookLog = () => readFileSync(join(vault, '.tsm', 'hook.log'), 'utf8');

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tsm-swe-'));
  const ref = join(root, 'ref');
  mkdirSync(join(ref, '.tsm'), { recursive: true });
  writeFileSync(join(root, `${SID}.jsonl`), part(0, lines.length));
  expect(runTsm(['ingest-session', '--vault', ref, join(root, `${SID}.jsonl`)]).code).toBe(0);
  clean = readFileSync(join(ref, NOTE), 'utf8');

  vault = join(root, 'vault');
  mkdirSync(join(vault, '.tsm', 'sessions'), { recursive: true });
  mkdirSync(join(vault, 'sessions'));
  mkdirSync(join(root, 't'));
  transcript = join(root, 't', `${SID}.jsonl`);
  writeFileSync(transcript, part(0, half));
  for (const dir of [root, join(root, 't'), vault]) chmodSync(dir, 0o755);
  // What tsm must write besides the note: its state, lock and log, the index.
  for (const dir of [join(vault, '.tsm'), join(vault, '.tsm', 'sessions'), join(vault, 'sessions')]) chmodSync(dir, 0o777);
  chmodSync(transcript, 0o644);
  const first = ingest();
  expect(first.code, first.stderr).toBe(0);
  expect(note()).not.toBe(clean);
  appendFileSync(transcript, part(half, lines.length)); // the session goes on while the note cannot be written
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Both surfaces while the note cannot be written, then the fix, then the whole note. */
function expectFailsClearlyThenRecovers(names: RegExp, fix: () => void): void {
  const before = note();
  const cli = ingest();
  expect(cli.code, cli.stderr).toBe(1);
  expect(cli.stdout).toBe('');
  expect(cli.stderr).toMatch(/^tsm: [^\n]+\n$/);
  expect(cli.stderr).toMatch(names);
  expect(cli.stderr).toContain('nothing is lost');

  const started = performance.now();
  const hook = stop();
  expect(hook.code, hook.stderr).toBe(0);
  expect(hook.stdout).toBe('');
  expect(performance.now() - started).toBeLessThan(15_000); // well within Claude Code's 30 s for Stop
  expect(hookLog()).toMatch(names);
  expect(hookLog()).not.toMatch(/Error: |\(at /); // explained, not reported as a bug
  expect(note()).toBe(before);

  fix();
  const after = ingest();
  expect(after.code, after.stderr).toBe(0);
  expect(after.stdout).toContain(`→ ${NOTE} (5 prompts, written)`);
  expect(note()).toBe(clean);
}

describe('a session note tsm cannot write', { timeout: 60_000 }, () => {
  it('the sessions folder is not writable: a clear error, then the whole note once it is', () => {
    if (asRoot) chownSync(join(vault, 'sessions'), 0, 0);
    chmodSync(join(vault, 'sessions'), 0o555);
    expectFailsClearlyThenRecovers(/cannot write the session note .*: the folder .*sessions is not writable for this user \(EACCES\): make it writable \(chmod u\+w /, () =>
      chmodSync(join(vault, 'sessions'), 0o777),
    );
  });

  it('the note is read-only (the folder is writable): it is not replaced, and the error says so', () => {
    if (asRoot) chownSync(join(vault, NOTE), 0, 0);
    chmodSync(join(vault, NOTE), 0o444);
    expectFailsClearlyThenRecovers(/cannot write the session note .*: the note is read-only \(EACCES\): make it writable \(chmod u\+w /, () =>
      chmodSync(join(vault, NOTE), 0o666),
    );
  });

  it('the sessions folder is on a read-only file system', (ctx) => {
    const folder = join(vault, 'sessions');
    try {
      execFileSync('mount', ['--bind', folder, folder], { stdio: 'pipe' });
    } catch (err) {
      console.log(`skipped "read-only file system": cannot bind-mount here (needs root): ${(err as Error).message.split('\n')[0]}`);
      ctx.skip();
      return;
    }
    let mounted = true;
    try {
      execFileSync('mount', ['-o', 'remount,bind,ro', folder], { stdio: 'pipe' });
      expectFailsClearlyThenRecovers(/cannot write the session note .*sessions is on a read-only file system \(EROFS\): remount it writable/, () => {
        execFileSync('umount', [folder], { stdio: 'pipe' });
        mounted = false;
      });
    } finally {
      if (mounted) execFileSync('umount', [folder], { stdio: 'pipe' });
    }
  });

  it('a new session whose sessions folder is not writable is told it may set sessionsDir', () => {
    rmSync(join(vault, '.tsm', 'sessions'), { recursive: true, force: true });
    mkdirSync(join(vault, '.tsm', 'sessions'));
    chmodSync(join(vault, '.tsm', 'sessions'), 0o777);
    rmSync(join(vault, NOTE));
    if (asRoot) chownSync(join(vault, 'sessions'), 0, 0);
    chmodSync(join(vault, 'sessions'), 0o555);
    const cli = ingest();
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/^tsm: .*not writable for this user .*or set sessionsDir, TSM_SESSIONS_DIR, to a folder you can write[^\n]*\n$/);
  });
});
