// What the Claude Code end-to-end tests share: a user's folders (a vault of three notes, a project, `tsm` on
// PATH), the plugin installed from this repository's marketplace as a user would, and readers of the
// requests the fake model API recorded.
import { removeTree } from '../helpers/remove-tree.js';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, TSM } from '../helpers/cli.js';
import { installFromMarketplace } from './claude-cli.js';
// @ts-expect-error: a plain .mjs module (also usable from scripts), no type declarations
import { textsOf } from './fake-anthropic.mjs';

export interface Recorded {
  method: string;
  path: string;
  body: { stream?: boolean; messages?: unknown; system?: unknown; tools?: unknown[] } | null;
}
export interface Fake {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

export const QUESTION = 'SX1262 の消費電力を教えて';
export const KNOWLEDGE_NOTE = 'knowledge/lora/sx1262-power.md';

export const VAULT_FILES: Record<string, string> = {
  [KNOWLEDGE_NOTE]: [
    '---',
    'status: current',
    'tags: [lora, power]',
    '---',
    '# SX1262 消費電力の実測',
    '',
    '## 測定結果',
    '',
    'PPK2 で測った SX1262 の消費電力。送信（13dBm、SF9）は 38mA、受信は 4.6mA、スリープは 0.6µA。',
    '1 回の送信（16 バイト、185ms）で約 7.2mAs を消費する。10 秒ごとの送信なら平均 0.72mA。',
    '',
  ].join('\n'),
  'knowledge/lora/antenna.md': '# アンテナ\n\n920MHz 帯のホイップアンテナ。利得は 2.15dBi。SX1262 モジュールとは U.FL で接続する。\n',
  'daily/2026-11-20.md': '# 2026-11-20\n\n首輪の筐体を印刷し直した。電池ボックスの爪が折れやすい。\n',
};

/**
 * The main loop's requests that carried the user's question: streamed, with tools. (Side requests quote
 * the question too: 2.0.x titles the previous session at start-up with a tool-less request.)
 */
export function mainRequests(fake: Fake, from: number, to = fake.requests.length): Recorded[] {
  return fake.requests
    .slice(from, to)
    .filter((r) => r.path === '/v1/messages' && r.body?.stream && Array.isArray(r.body.tools) && r.body.tools.length > 0 && textsOf(r.body).some((t: string) => t.includes(QUESTION)));
}

/**
 * The last `<knowledge_search>` block in a request (a continued session's request repeats the earlier
 * turns, each with its own), and the vault paths of its results in rank order.
 */
export function knowledgeSearch(r: Recorded | undefined): { block: string; sources: string[] } | null {
  if (!r) return null;
  const text = textsOf(r.body).join('\n');
  const blocks = [...text.matchAll(/<knowledge_search[\s\S]*?<\/knowledge_search>/g)];
  if (blocks.length === 0) return null;
  const block = blocks[blocks.length - 1][0];
  return { block, sources: [...block.matchAll(/<source[^>]*>([^<]+)<\/source>/g)].map((s) => s[1]) };
}

export function sessionNotes(vault: string): string[] {
  const dir = join(vault, 'sessions');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.md')).map((f) => `sessions/${f}`) : [];
}

export function hookLog(vault: string): string[] {
  const p = join(vault, '.tsm', 'hook.log');
  return existsSync(p) ? readFileSync(p, 'utf8').split('\n').filter(Boolean) : [];
}

/** A run's folder goes, even while a detached SessionEnd ingest still writes a note into it (removeTree). */
export const removeRun = removeTree;

/** Whether Claude Code version `a` is older than `b` (plain x.y.z). */
export function olderThan(a: string, b: string): boolean {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) < (pb[i] ?? 0);
  return false;
}

/**
 * A user's folders under `root`: the notes vault, a project, and `tsm` on PATH as a user's global install
 * puts it (a command named tsm, run by the hook's shell).
 */
export function userFolders(root: string): { vault: string; project: string; binDir: string } {
  const vault = join(root, 'notes');
  const project = join(root, 'dog-tracker-fw');
  mkdirSync(project);
  for (const [rel, text] of Object.entries(VAULT_FILES)) {
    mkdirSync(join(vault, rel, '..'), { recursive: true });
    writeFileSync(join(vault, rel), text);
  }
  const binDir = join(root, 'bin');
  mkdirSync(binDir);
  symlinkSync(TSM, join(binDir, 'tsm'));
  return { vault, project, binDir };
}

/** Installs `plugin` (tsm or tsm-warm) from this repository's marketplace, as a user would (claude-cli.ts). */
export function installPlugin(bin: string, env: NodeJS.ProcessEnv, cwd: string, plugin = 'tsm'): Promise<void> {
  return installFromMarketplace(bin, env, cwd, ROOT, plugin);
}
