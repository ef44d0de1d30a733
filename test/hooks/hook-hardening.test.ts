// End to end, the built `tsm` as an adversary would run it as a hook: odd command lines, huge prompts,
// an index that blocks, forged log lines. Whatever happens: exit 0 or 1 (never 2, which erases the
// prompt), within the deadline, stdout empty or one well-formed JSON object.
import { removeTree } from '../helpers/remove-tree.js';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, constants, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, copyVaultExample, type RunResult, TSM, tsm, tsmAsync, waitFor } from '../helpers/cli.js';
import { holdLock, release } from './hook-harness.js';
import { SCHEMA_VERSION } from '../../src/index/schema.js';

let work: string;
let vault: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'tsm-hook-hard-'));
  vault = join(work, 'vault');
  copyVaultExample(vault);
  rmSync(join(vault, '.tsm'), { recursive: true, force: true });
  expect(tsm(['init'], { cwd: vault }).code).toBe(0);
  expect(tsm(['index'], { cwd: vault }).code).toBe(0);
}, 60_000);
afterAll(() => removeTree(work));

const payload = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ session_id: 'a1b2c3d4-0000', cwd: vault, hook_event_name: 'UserPromptSubmit', prompt: 'LoRa antenna range', ...extra });

const logOf = (dir: string) => {
  const p = join(dir, '.tsm', 'hook.log');
  return existsSync(p) ? readFileSync(p, 'utf8') : '';
};

/** The additionalContext Claude Code would inject, or null when stdout is empty. */
function injected(r: RunResult): string | null {
  if (r.stdout === '') return null;
  const json = JSON.parse(r.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  return json.hookSpecificOutput.additionalContext;
}

/** Runs the built tsm with `argv` and a stdin that stays open (nobody writes): like a silent pipe. */
function withOpenStdin(argv: string[], env: Record<string, string> = {}, written = ''): Promise<RunResult & { ms: number; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [TSM, ...argv], { cwd: vault, env: cleanEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const kill = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('close', (code, signal) => {
      clearTimeout(kill);
      child.stdin.destroy();
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
    });
    if (written) child.stdin.write(written);
  });
}

describe('a hook payload on stdin is answered whatever the command line', () => {
  it.each([[['--db', 'hook']], [['-v', 'hook']], [[]], [['hook', '--bogus', '-x']], [['--db=', 'hook', 'UserPromptSubmit', 'extra']], [['search']], [['--versoin']]])(
    'tsm %j: exit 0 and the context',
    (argv) => {
      const r = tsm(argv, { cwd: vault, input: payload() });
      expect(r.code, r.stderr).toBe(0);
      expect(injected(r)).toContain('<knowledge_search');
    },
  );

  it('bare `tsm` (Claude Code 2.0.x drops exec-form args) detects SessionStart from hook_event_name', () => {
    const r = tsm([], { cwd: vault, input: JSON.stringify({ cwd: vault, hook_event_name: 'SessionStart', source: 'startup' }) });
    expect(r.code, r.stderr).toBe(0);
    expect(injected(r)).toMatch(/^## tsm: recent context/);
  });

  it('property: odd argument lists with a payload on stdin never exit 2, and stdout is empty or one JSON object', () => {
    const token = fc.constantFrom(
      'hook', 'hook', '--db', '-v', '--vault', `--vault=${vault}`, '--bogus', '-x', '--', '', '-', '--db=', '=', 'UserPromptSubmit',
      'session-start', 'x y', '--json', '-n', '0', '--limit', 'status2', '--versoin', 'search', 'related', 'status', '-h', '--no-db',
    );
    const runs = Math.max(12, Math.ceil(Number(process.env.TSM_PROPERTY_RUNS ?? 300) / 12));
    fc.assert(
      fc.property(fc.array(fc.oneof(token, fc.string({ maxLength: 4 })), { maxLength: 5 }), (argv) => {
        const r = tsm(argv, { cwd: vault, input: payload(), timeoutMs: 15_000 });
        expect(r.code, `${JSON.stringify(argv)}: ${r.stderr}`).not.toBe(2);
        expect([0, 1]).toContain(r.code);
        if (r.stdout.startsWith('{')) expect(() => JSON.parse(r.stdout)).not.toThrow();
      }),
      { numRuns: runs },
    );
  }, 180_000);

  it('a damaged payload on stdin of a bare `tsm` gets the hook\'s answer (exit 1, a message), not exit 2', () => {
    for (const input of ['{"hook_event_name":"UserPromptSubmit","prompt":"Lo', '{"hook_event_name": "Stop"} trailing']) {
      const r = tsm([], { cwd: vault, input });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^tsm hook: /);
    }
  });

  it('without a payload, a usage error still exits 2 at once: an interactive stdin is never read', () => {
    const started = Date.now();
    const r = spawnSync(process.execPath, [TSM], { cwd: vault, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('tsm --help');
    expect(Date.now() - started).toBeLessThan(5000);
    const piped = tsm([], { cwd: vault, input: 'not a payload\n' });
    expect(piped.code).toBe(2);
    expect(piped.stdout).toBe('');
  });

  it('a usage error with an open, silent stdin waits only briefly for a payload, then exits 2', async () => {
    const r = await withOpenStdin(['--no-such-option']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown option --no-such-option');
    expect(r.ms).toBeLessThan(8000);
  });
});

describe('the deadline holds whatever the input or the index does', () => {
  it('a 5 MB prompt: exit 0 within the deadline (the prompt is capped before any work)', async () => {
    const prompt = `LoRa antenna range ${'ログ sensor reading 42 ok. '.repeat(200_000)}`;
    const started = Date.now();
    const r = await tsmAsync(['hook'], { cwd: vault, input: payload({ prompt }), env: { TSM_HOOK_TIMEOUT_MS: '1500' } });
    expect(r.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(1500 + 1500); // the deadline, plus slack for a loaded machine's spawn
    const ctx = injected(r);
    if (ctx !== null) expect(ctx).toContain('<knowledge_search');
  });

  // `tsm hook` reads stdin through the thread pool (hook-args.ts readPayloadWithin), whose waiting read
  // holds even process.exit(): past the deadline the hook kills itself. Claude Code counts a hook ended by a
  // signal as exit status 1, a failed hook whose prompt goes through.
  it.each([
    ['nothing', ''],
    ['half a payload', payload().slice(0, 40)],
  ])('a stdin that never closes, %s written: no output, ended soon after the deadline, and says why', async (_, written) => {
    const r = await withOpenStdin(['hook'], { TSM_HOOK_TIMEOUT_MS: '300' }, written);
    expect(r.signal).toBe('SIGKILL');
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('no payload arrived on stdin before the deadline');
    expect(r.ms).toBeLessThan(300 + 3000);
  });

  it('a non-blocking stdin (its writer set O_NONBLOCK) is polled: a payload written later is answered', async () => {
    // Node's spawn makes a child's stdio blocking, so the FIFO, opened non-blocking here, reaches tsm as fd 3
    // and the shell moves it to stdin.
    const fifo = join(work, 'nonblocking.fifo');
    execFileSync('mkfifo', [fifo]);
    const rfd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const wfd = openSync(fifo, constants.O_WRONLY);
    const r = await new Promise<RunResult>((resolve) => {
      const child = spawn('/bin/sh', ['-c', `exec "${process.execPath}" "${TSM}" hook <&3 3<&-`], { cwd: vault, env: cleanEnv({ TSM_HOOK_TIMEOUT_MS: '8000' }), stdio: ['ignore', 'pipe', 'pipe', rfd] });
      let stdout = '';
      let stderr = '';
      child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
      setTimeout(() => {
        writeSync(wfd, payload());
        closeSync(wfd);
      }, 200);
    });
    closeSync(rfd);
    expect(r.code, r.stderr).toBe(0);
    expect(injected(r)).toContain('<knowledge_search');
  });

  it('a bare `tsm` with a stdin that never closes still ends with its usage error (exit 2), not a signal', async () => {
    const r = await withOpenStdin([], { TSM_HOOK_TIMEOUT_MS: '300' });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  it.each([[['hook']], [[]]])('tsm %j: a payload whose writer keeps the pipe open is answered at once, not at the deadline', async (argv) => {
    const r = await new Promise<RunResult & { ms: number }>((resolve) => {
      const started = Date.now();
      const child = spawn(process.execPath, [TSM, ...argv], { cwd: vault, env: cleanEnv({ TSM_HOOK_TIMEOUT_MS: '8000' }) });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.on('close', (code) => {
        child.stdin.destroy();
        resolve({ code, stdout, stderr: '', ms: Date.now() - started });
      });
      child.stdin.write(payload()); // and never ended
    });
    expect(r.code).toBe(0);
    expect(injected(r)).toContain('<knowledge_search');
    expect(r.ms).toBeLessThan(8000);
  });

  it('an index under an exclusive lock: nothing injected, exit 0, one log line, SQLite waits no longer than the deadline', async () => {
    const holder = await holdLock(join(vault, '.tsm', 'index.db'), 'exclusive');
    const before = logOf(vault);
    try {
      const started = Date.now();
      const r = await tsmAsync(['hook'], { cwd: vault, input: payload(), env: { TSM_HOOK_TIMEOUT_MS: '600' } });
      expect(r).toMatchObject({ code: 0, stdout: '' });
      expect(Date.now() - started).toBeLessThan(600 + 1500);
      expect(logOf(vault).slice(before.length).trim().split('\n')).toHaveLength(1);
    } finally {
      await release(holder);
    }
  });

  it.each(['index.db', 'index.db-wal', 'config.json', 'hook.log'])('a FIFO at .tsm/%s never blocks the hook', (name) => {
    const v = join(work, `fifo-${name}`);
    mkdirSync(join(v, '.tsm'), { recursive: true });
    cpSync(join(vault, '.tsm', 'index.db'), join(v, '.tsm', 'index.db'));
    rmSync(join(v, '.tsm', name), { force: true });
    expect(spawnSync('mkfifo', [join(v, '.tsm', name)]).status).toBe(0);
    // --bogus: one line for the log in every case (an ignored argument).
    const r = tsm(['hook', '--bogus'], { cwd: v, input: payload({ cwd: v }), timeoutMs: 10_000 });
    expect(r.code).toBe(0); // a hang would be killed by the timeout: code null
    if (name !== 'hook.log') {
      expect(r.stdout).toBe('');
      expect(logOf(v)).toMatch(/not a plain file/);
    } else {
      expect(injected(r)).toContain('<knowledge_search');
      expect(r.stderr).toMatch(/^tsm hook: .*ignored arguments/); // no log to write to: stderr instead
    }
  });
});

describe('Stop with a FIFO for a transcript', () => {
  it('does not wait on it: exit 0 at once, one log line', () => {
    const fifo = join(work, 'a1b2c3d4-fifo.jsonl');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const before = logOf(vault);
    const r = tsm(['hook'], { cwd: vault, input: payload({ hook_event_name: 'Stop', transcript_path: fifo }), timeoutMs: 10_000 });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(logOf(vault).slice(before.length)).toMatch(/transcript_path is not a plain file/);
  });
});

describe('hook.log cannot be forged', () => {
  it('a newline (or any control character) in any payload string stays inside one escaped line', () => {
    const before = logOf(vault).split('\n').length;
    const forged = '\n2026-01-01T00:00:00.000Z UserPromptSubmit session=evil: forged\r\u001b[31m\u2028';
    for (const extra of [{ hook_event_name: `Bogus${forged}` }, { session_id: forged, prompt: null }, { hook_event_name: 'UserPromptSubmit', prompt: 7 }]) {
      expect(tsm(['hook', `--evil${forged}`], { cwd: vault, input: payload(extra) }).code).toBe(0);
    }
    const lines = logOf(vault).split('\n').slice(before - 1).filter(Boolean);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) {
      expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d \S+/); // local time, with its offset
      expect(line).not.toMatch(/^2026-01-01/);
      expect(line).not.toMatch(/[\u0000-\u001f\u2028]/);
    }
    expect(lines.join('\n')).toContain('\\n2026-01-01');
  });

  // A 3 MB hook_event_name made one 3 MB line: the user's log moved to hook.log.1 (the generation before
  // it dropped), and tsm doctor printed the line whole.
  it('a huge payload string makes a bounded line, and the log is not rotated for it', () => {
    const before = logOf(vault);
    expect(tsm(['hook'], { cwd: vault, input: payload({ hook_event_name: 'X'.repeat(3_000_000), session_id: 'Y'.repeat(1_000_000) }) }).code).toBe(0);
    const after = logOf(vault);
    expect(after.startsWith(before)).toBe(true);
    const added = after.slice(before.length);
    expect(added.length).toBeGreaterThan(0);
    expect(added.length).toBeLessThan(5000);
    expect(added).toContain('… (3000000 characters)');
  });
});

describe('SessionStart starts a detached incremental sync (first use without `tsm index`)', () => {
  it('SessionStart waits for a first build within its deadline, so the first prompt of the session finds the index', async () => {
    const v = join(work, 'first-use-waits');
    copyVaultExample(v);
    rmSync(join(v, '.tsm'), { recursive: true, force: true });
    const env = { TSM_VAULT: v, TSM_HOOK_TIMEOUT_MS: '20000' };
    const start = tsm(['hook'], { cwd: work, env, input: JSON.stringify({ cwd: work, hook_event_name: 'SessionStart', source: 'startup' }) });
    expect(start.code).toBe(0);
    expect(existsSync(join(v, '.tsm', 'index.db'))).toBe(true);
    expect(existsSync(join(v, '.tsm', 'sync.lock'))).toBe(false);
    const first = tsm(['hook'], { cwd: work, env, input: payload({ cwd: work }) });
    expect(injected(first)).toContain('<knowledge_search');
    expect(logOf(v)).not.toMatch(/building it in the background/);
  }, 60_000);

  it('a TSM_VAULT with notes and no index gets one in the background past the deadline; a prompt meanwhile never waits', async () => {
    const v = join(work, 'first-use');
    copyVaultExample(v);
    rmSync(join(v, '.tsm'), { recursive: true, force: true });
    // The smallest deadline there is: SessionStart gives up waiting long before the build is done.
    const env = { TSM_VAULT: v, TSM_HOOK_TIMEOUT_MS: '50' };
    const started = Date.now();
    const r = tsm(['hook'], { cwd: work, env, input: JSON.stringify({ cwd: work, hook_event_name: 'SessionStart', source: 'startup' }) });
    expect(r.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    const during = tsm(['hook'], { cwd: work, env, input: payload({ cwd: work }) });
    expect(during.code).toBe(0);
    await waitFor(() => !existsSync(join(v, '.tsm', 'sync.lock')) && existsSync(join(v, '.tsm', 'index.db')), 30_000);
    const after = tsm(['hook'], { cwd: work, env: { TSM_VAULT: v }, input: payload({ cwd: work }) });
    expect(injected(after)).toContain('<knowledge_search');
    expect(logOf(v)).toMatch(/SessionStart: no index yet at .*: building it in the background/);
    expect(logOf(v)).toMatch(/background index: \d+ added/);
  }, 60_000);

  /** A copy of vault-example indexed by this tsm, its index then marked as written with schema `version`. */
  function indexedAsSchema(name: string, version: number): { v: string; db: string } {
    const v = join(work, name);
    copyVaultExample(v);
    rmSync(join(v, '.tsm'), { recursive: true, force: true });
    expect(tsm(['index'], { cwd: v }).code).toBe(0);
    const db = join(v, '.tsm', 'index.db');
    const raw = new Database(db);
    // Schema 13 added the note vectors' table (empty here: vault-example is too small for the model).
    if (version < 13) raw.exec('DROP TABLE semantic_notes');
    raw.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(version));
    raw.close();
    return { v, db };
  }

  /** The schema version an index file holds now. */
  function schemaOf(db: string): unknown {
    const conn = new Database(db, { readonly: true });
    try {
      return conn.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get();
    } finally {
      conn.close();
    }
  }

  it('a prompt that meets an index of an older schema (tsm upgraded mid-session) gets nothing at once and starts the sync that updates it', async () => {
    // vault-example is too small for the semantic model: its index without the note vectors' table is
    // exactly what schema 12 wrote.
    const { v, db } = indexedAsSchema('upgraded', 12);
    const schema = () => schemaOf(db);
    expect(schema()).toBe('12');
    const env = { TSM_VAULT: v };
    const first = tsm(['hook'], { cwd: work, env, input: payload({ cwd: work }) });
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('');
    await waitFor(() => schema() === String(SCHEMA_VERSION) && !existsSync(join(v, '.tsm', 'sync.lock')), 30_000);
    const next = tsm(['hook'], { cwd: work, env, input: payload({ cwd: work }) });
    expect(injected(next)).toContain('<knowledge_search');
    expect(logOf(v)).toContain(`schema version 12, this tsm needs ${SCHEMA_VERSION}: run \`tsm index\` to update it (a background \`tsm index\` started: the next prompts get results)`);
  }, 60_000);

  it('a session start that meets an index of an older schema logs that the sync it started updates it, not only "run `tsm index`"', async () => {
    const { v, db } = indexedAsSchema('upgraded-start', 12);
    const schema = () => schemaOf(db);
    const env = { TSM_VAULT: v };
    const r = tsm(['hook'], { cwd: work, env, input: JSON.stringify({ cwd: work, hook_event_name: 'SessionStart', source: 'startup', session_id: 's1' }) });
    expect(r.code).toBe(0);
    await waitFor(() => schema() === String(SCHEMA_VERSION) && !existsSync(join(v, '.tsm', 'sync.lock')), 30_000);
    expect(logOf(v)).toContain(
      `SessionStart session=s1: the index at ${db} has schema version 12, this tsm needs ${SCHEMA_VERSION}: run \`tsm index\` to update it (a background \`tsm index\` started: the next prompts get results)`,
    );
    expect(injected(tsm(['hook'], { cwd: work, env, input: payload({ cwd: work }) }))).toContain('<knowledge_search');
  }, 60_000);

  it('an index of a newer tsm: a prompt gets nothing and a session start syncs nothing, both log why; tsm index rebuilds it', async () => {
    const { v, db } = indexedAsSchema('newer', 99);
    const before = readFileSync(db);
    const r = tsm(['hook'], { cwd: work, env: { TSM_VAULT: v }, input: payload({ cwd: work }) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    // A background sync would have taken the lock and rebuilt the file by now (the older-schema case above
    // takes well under a second on vault-example).
    await new Promise((res) => setTimeout(res, 1500));
    expect(existsSync(join(v, '.tsm', 'sync.lock'))).toBe(false);
    expect(readFileSync(db).equals(before)).toBe(true);
    expect(logOf(v)).toMatch(/UserPromptSubmit .*was written by a newer tsm \(schema version 99; this tsm reads \d+\): use that tsm .*, or run `tsm index` with this one to rebuild it/);
    expect(logOf(v)).not.toMatch(/a background `tsm index` started/);
    // A new session's background sync leaves it too, and says why; the user's own `tsm index` rebuilds it.
    const start = tsm(['hook'], { cwd: work, env: { TSM_VAULT: v }, input: JSON.stringify({ cwd: work, hook_event_name: 'SessionStart', session_id: 's2' }) });
    expect(start.code).toBe(0);
    await waitFor(() => /written by a newer tsm/.test(logOf(v)) && !existsSync(join(v, '.tsm', 'sync.lock')), 30_000);
    expect(readFileSync(db).equals(before)).toBe(true);
    expect(tsm(['index'], { cwd: v }).code).toBe(0);
    expect(injected(tsm(['hook'], { cwd: work, env: { TSM_VAULT: v }, input: payload({ cwd: work }) }))).toContain('<knowledge_search');
  }, 60_000);

  it('a second session while a sync runs starts none; a project without a vault starts none and writes nothing', async () => {
    const v = join(work, 'locked');
    copyVaultExample(v);
    mkdirSync(join(v, '.tsm'), { recursive: true });
    // A live process holds the lock (this test's own pid): the hook must not start a second sync.
    const lock = join(v, '.tsm', 'sync.lock');
    spawnSync('sh', ['-c', `printf %s ${process.pid} > '${lock}'`]);
    const r = tsm(['hook'], { cwd: work, env: { TSM_VAULT: v }, input: JSON.stringify({ cwd: work, hook_event_name: 'SessionStart' }) });
    expect(r.code).toBe(0);
    await new Promise((res) => setTimeout(res, 1500));
    expect(existsSync(join(v, '.tsm', 'index.db'))).toBe(false);
    const bare = mkdtempSync(join(tmpdir(), 'tsm-bare-start-'));
    try {
      const b = tsm(['hook'], { cwd: bare, input: JSON.stringify({ cwd: bare, hook_event_name: 'SessionStart' }) });
      expect(b).toEqual({ code: 0, stdout: '', stderr: '' });
      await new Promise((res) => setTimeout(res, 500));
      expect(readdirSync(bare)).toEqual([]);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  }, 30_000);
});
