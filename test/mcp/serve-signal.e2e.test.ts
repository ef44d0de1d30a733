// The built `tsm serve` stopped by SIGTERM (or SIGINT, SIGHUP) while many requests wait on its stdin. Tools
// run synchronously, and the transport used to hand every line of a chunk to the SDK at once: a signal was
// seen only once all of them had run (50 searches on a 3,000-note vault: 2.8–3.3 s after SIGTERM). Now the
// request in hand finishes, each one still waiting is answered as not run (-32000), and the server exits.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cleanEnv, TSM, useIndexedVault } from '../helpers/cli.js';

const WORDS = ['sync', 'engine', 'index', 'vault', 'note', 'search', 'link', 'daily', 'session', 'model'];
const files: Record<string, string> = {};
for (let i = 0; i < 300; i++) {
  const body = Array.from({ length: 200 }, (_, j) => `${WORDS[(i * 7 + j * 3) % WORDS.length]}${(i + j) % 37}`).join(' ');
  files[`knowledge/n${i}.md`] = `# Note ${i}\n\n${body}\n`;
}
const vault = useIndexedVault(files);

const INITIALIZE = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } };
const REQUESTS = 200;

describe('tsm serve on SIGTERM with requests queued', () => {
  it('finishes the request in hand, answers the waiting ones as not run, and exits', { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, [TSM, 'serve', '--vault', vault.dir], { env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const replies = () => out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id: number; result?: unknown; error?: { code: number; message: string } });
    let killedAt = 0;
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const ids = new Set(replies().map((r) => r.id));
      if (ids.has(0) && !ids.has(1) && out.split('\n').length === 2 && !killedAt) {
        // Initialized: every search in one write, as a client that sends without waiting does.
        const lines = [JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })];
        for (let id = 1; id <= REQUESTS; id++) {
          lines.push(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search', arguments: { query: `${WORDS[id % WORDS.length]}${id % 37} engine` } } }));
        }
        child.stdin.write(`${lines.join('\n')}\n`);
      } else if (ids.has(1) && !killedAt) {
        killedAt = Date.now();
        child.kill('SIGTERM');
      }
    });
    child.stdin.write(`${JSON.stringify(INITIALIZE)}\n`);
    const code = await exited;
    const tookMs = Date.now() - killedAt;

    expect(code).toBe(0);
    expect(stderr).toBe('');
    const answers = replies().filter((r) => r.id > 0);
    // Every request has exactly one answer: its result, or word that it was not run.
    expect(answers.map((r) => r.id).sort((a, b) => a - b)).toEqual(Array.from({ length: REQUESTS }, (_, i) => i + 1));
    const notRun = answers.filter((r) => r.error);
    for (const r of notRun) {
      expect(r.error).toEqual({ code: -32000, message: 'tsm serve is stopping (SIGTERM): this request was not run; send it again once the server is back' });
    }
    // Before: all 200 ran (none was refused) and the exit came only after the last.
    expect(notRun.length).toBeGreaterThan(REQUESTS / 2);
    expect(answers.filter((r) => r.result).length).toBeGreaterThanOrEqual(1);
    expect(tookMs).toBeLessThan(2_000);
  });
});
