// Helpers for end-to-end tests: run the built `tsm` as a real process against real temporary vaults.
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const TSM = join(ROOT, 'bin/tsm');
export const VAULT_EXAMPLE = join(ROOT, 'vault-example');

export function assertBuilt(): void {
  if (!existsSync(join(ROOT, 'dist/tsm.cjs'))) throw new Error('dist/tsm.cjs is missing: run `npm run build` (npm test does)');
}

/**
 * A copy of the built package (bin/, dist/, node_modules linked) with these dist/ files removed, and a runner
 * for its `tsm`: a command that runs without a module still runs there; one that needs it fails.
 */
export function packageWithout(distFiles: string[]): { run: (args: string[], cwd: string) => SpawnSyncReturns<string>; cleanup: () => void } {
  assertBuilt();
  const pkg = mkdtempSync(join(tmpdir(), 'tsm-pkg-'));
  cpSync(join(ROOT, 'bin'), join(pkg, 'bin'), { recursive: true });
  cpSync(join(ROOT, 'dist'), join(pkg, 'dist'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
  for (const f of distFiles) rmSync(join(pkg, 'dist', f));
  return {
    run: (args, cwd) => spawnSync(process.execPath, [join(pkg, 'bin/tsm'), ...args], { cwd, env: cleanEnv(), encoding: 'utf8' }),
    cleanup: () => rmSync(pkg, { recursive: true, force: true }),
  };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  input?: string;
  timeoutMs?: number;
}

/** The environment a test run sees: no TSM_* from the developer's shell, no colours. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('TSM_') && !k.startsWith('CLAUDE')) env[k] = v;
  delete env.FORCE_COLOR;
  return { ...env, ...extra };
}

export function tsm(args: string[], opts: RunOptions = {}): RunResult {
  assertBuilt();
  const r = spawnSync(process.execPath, [TSM, ...args], {
    cwd: opts.cwd ?? ROOT,
    env: cleanEnv(opts.env),
    input: opts.input ?? '',
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

/** Like tsm() but asynchronous, so several can run at once. */
export function tsmAsync(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  assertBuilt();
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [TSM, ...args], { cwd: opts.cwd ?? ROOT, env: cleanEnv(opts.env) });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
    child.stdin.end(opts.input ?? '');
  });
}

/**
 * Copies vault-example/ to `dest` without its `.tsm/`: the README's quick start leaves an index there, and a
 * test must start from the notes alone.
 */
export function copyVaultExample(dest: string): void {
  cpSync(VAULT_EXAMPLE, dest, { recursive: true, filter: (src) => !/[\\/]\.tsm([\\/]|$)/.test(src.slice(VAULT_EXAMPLE.length)) });
}

/** For the tests of one file: a vault of `files`, indexed by the built `tsm index` before them, removed after. */
export function useIndexedVault(files: Record<string, string | Buffer>): { readonly dir: string } {
  const state = { dir: '' };
  let cleanup = () => {};
  beforeAll(() => {
    const v = makeVault(files);
    ({ cleanup } = v);
    state.dir = v.dir;
    const r = tsm(['index', '--vault', v.dir]);
    expect(r.code, r.stderr).toBe(0);
  });
  afterAll(() => cleanup());
  return state;
}

/** A temporary vault filled with `files` (path → content); removed by the returned cleanup. */
export function makeVault(files: Record<string, string | Buffer> = {}): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'tsm-test-'));
  writeFiles(dir, files);
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function writeFiles(dir: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = join(dir, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
}

/** Polls `check` until it returns true or `timeoutMs` passes (no fixed sleeps). */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 10_000, stepMs = 50): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

let mountable: boolean | undefined;
/** Whether tests may mount in a namespace of their own (root, and `unshare -m` allowed): a real EIO needs it. */
export function canMount(): boolean {
  return (mountable ??= process.getuid?.() === 0 && spawnSync('unshare', ['-m', 'true']).status === 0);
}
