// `tsm hook` in-process: every way the vault or index can be broken or busy — no context, exit 0, logged.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../../src/hooks/deadline.js';
import { handleHook } from '../../src/hooks/dispatch.js';
import { elements, parseXml } from '../format/xml-tree.js';
import { holdLock, injected, logLines, prompt, release, request, silent, state, useFreshVault } from './hook-harness.js';

useFreshVault();

describe('fail open: broken vault or index', () => {
  it('no index: no context, exit 0, one log line saying what to do', async () => {
    rmSync(state.vault.db);
    const out = await handleHook(request(prompt('LoRa antenna')));
    silent(out);
    expect(out.stderr).toBe('');
    expect(logLines()).toHaveLength(1);
    expect(logLines()[0]).toMatch(/no index at .*index\.db: run `tsm index`/);
  });

  it('corrupt index file: no context, exit 0, logged', async () => {
    for (const suffix of ['-wal', '-shm']) rmSync(state.vault.db + suffix, { force: true });
    writeFileSync(state.vault.db, Buffer.alloc(8192, 0x5a));
    const out = await handleHook(request(prompt('LoRa antenna')));
    silent(out);
    expect(logLines()).toHaveLength(1);
    expect(logLines()[0]).toMatch(/not a usable database|cannot read the index/);
  });

  it('index file that is empty: no context, exit 0, logged', async () => {
    for (const suffix of ['', '-wal', '-shm']) rmSync(state.vault.db + suffix, { force: true });
    writeFileSync(state.vault.db, '');
    silent(await handleHook(request(prompt('LoRa antenna'))));
    expect(logLines()).toHaveLength(1);
  });

  it('invalid config.json: no context, exit 0, logged', async () => {
    writeFileSync(join(state.vault.dir, '.tsm', 'config.json'), '{ "hookTopK": ');
    silent(await handleHook(request(prompt('LoRa antenna'))));
    expect(logLines()[0]).toMatch(/config\.json: not valid JSON/);
  });

  it('invalid $TSM_HOOK_TIMEOUT_MS: no context, exit 0, logged', async () => {
    silent(await handleHook(request(prompt('LoRa antenna'), { env: { TSM_HOOK_TIMEOUT_MS: 'soon' } })));
    expect(logLines()[0]).toMatch(/TSM_HOOK_TIMEOUT_MS must be a whole number/);
  });

  it('an empty $TSM_HOOK_TIMEOUT_MS, $TSM_HOOK_TOP_K or $TSM_SNIPPET_BUDGET is unset: context, nothing logged', async () => {
    // `export TSM_HOOK_TOP_K=` made every prompt's hook log 'must be a whole number (got "")' and inject nothing.
    const out = await handleHook(request(prompt('LoRa antenna'), { env: { TSM_HOOK_TIMEOUT_MS: '', TSM_HOOK_TOP_K: '', TSM_SNIPPET_BUDGET: '' } }));
    expect(out.exitCode).toBe(0);
    expect(injected(out)).toContain('<result');
    expect(logLines()).toEqual([]);
  });

  it('falls back to stderr when the log cannot be written', async () => {
    const bare = mkdtempSync(join(tmpdir(), 'tsm-badlog-'));
    try {
      writeFileSync(join(bare, '.tsm'), 'a file where the folder should be');
      const out = await handleHook(request(prompt('LoRa antenna', { cwd: bare }), { env: { TSM_VAULT: bare }, cwd: bare }));
      silent(out);
      expect(out.stderr).toMatch(/^tsm hook: \S+ UserPromptSubmit session=sess-1: .+\n$/);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it.skipIf(process.getuid?.() === 0)('an unreadable index: no context, exit 0, logged', async () => {
    chmodSync(state.vault.db, 0o000);
    try {
      silent(await handleHook(request(prompt('LoRa antenna'))));
      expect(logLines()).toHaveLength(1);
    } finally {
      chmodSync(state.vault.db, 0o644);
    }
  });
});

describe('fail open: a writer holds the index', () => {
  it('a writer inside BEGIN EXCLUSIVE does not stop WAL readers: context still comes', async () => {
    const proc = await holdLock(state.vault.db, 'transaction');
    try {
      const out = await handleHook(request(prompt('LoRa antenna')));
      expect(elements(parseXml(injected(out)), 'result').length).toBeGreaterThan(0);
    } finally {
      await release(proc);
    }
  });

  it('an exclusive lock: no context, exit 0 within the deadline, logged', async () => {
    const proc = await holdLock(state.vault.db, 'exclusive');
    try {
      const started = performance.now();
      const out = await handleHook(request(prompt('LoRa antenna'), { deadline: new Deadline(300, performance.now()) }));
      const took = performance.now() - started;
      silent(out);
      expect(took).toBeLessThan(3000); // the lock is waited on for the deadline (300 ms), not for the 10 s busy timeout
      expect(logLines()).toHaveLength(1);
    } finally {
      await release(proc);
    }
  });
});
