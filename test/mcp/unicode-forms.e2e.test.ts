// The built `tsm serve` over the SDK's client, given names in either Unicode form: macOS writes a file name
// in NFD (HFS+, tab completion) or NFC (typed), and a session note keeps a path as its transcript had it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cleanEnv, TSM, useIndexedVault } from '../helpers/cli.js';
import { ok } from './client.js';

const NFC = 'src/プロジェクト/ガイド.c';
const NFD = NFC.normalize('NFD');

const session = (id: string, day: string, file: string) =>
  [
    '---',
    'type: session',
    `session_id: ${id}`,
    'project: proj',
    'cwd: /home/me/proj',
    `started: ${day}T12:00:00.000Z`,
    `files_edited: ["${file}"]`,
    '---',
    '# proj: fix the guide',
    '',
    '## 1. fix the guide',
    '',
    'fix the guide',
    '',
    '### Actions',
    '',
    `- Edit ${file}`,
    '',
  ].join('\n');

const vault = useIndexedVault({
  'sessions/2026-11-19-proj-3f9a2c1e.md': session('3f9a2c1e-7b4d-4e21-9c0a-5d8e6f1b2a34', '2026-11-19', NFC),
  'sessions/2026-11-20-proj-b7c1d2e3.md': session('b7c1d2e3-1111-2222-3333-444455556666', '2026-11-20', NFD),
});

let client: Client;
beforeAll(async () => {
  const transport = new StdioClientTransport({ command: process.execPath, args: [TSM, 'serve', '--vault', vault.dir], env: cleanEnv() as Record<string, string>, stderr: 'pipe' });
  client = new Client({ name: 'tsm-unicode', version: '1.0.0' });
  await client.connect(transport);
}, 30_000);
afterAll(async () => client?.close());

describe('file_history in either Unicode form', () => {
  it('finds the sessions that edited a file whichever form the argument and the notes have', async () => {
    // Before: each form found only the session written in the same form.
    for (const given of [NFC, NFD, `/home/me/proj/${NFD}`, 'ガイド.c'.normalize('NFD')]) {
      const r = await ok(client, 'file_history', { file_path: given });
      expect(r.sessions.map((s: any) => s.path), given).toEqual(['sessions/2026-11-20-proj-b7c1d2e3.md', 'sessions/2026-11-19-proj-3f9a2c1e.md']);
      for (const s of r.sessions) expect(s.how).toBe('edited');
    }
  });
});
