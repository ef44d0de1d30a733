// The built `tsm serve` reading a request list from its stdin (`tsm serve < requests.jsonl`), as files are
// really written: with a byte order mark in front, without a newline after the last line.
import { describe, expect, it } from 'vitest';
import { tsm, useIndexedVault } from '../helpers/cli.js';

const vault = useIndexedVault({ 'knowledge/sync.md': '# Sync\n\nthe sync engine keeps notes in step\n' });

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
const search = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search', arguments: { query: 'sync engine' } } });

/** `tsm serve` fed `input` on stdin until its end: the JSON-RPC lines it wrote, and how it ended. */
function serve(input: string): { replies: any[]; code: number | null; stderr: string } {
  const r = tsm(['serve', '--vault', vault.dir], { input, timeoutMs: 30_000 });
  return { replies: r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)), code: r.code, stderr: r.stderr };
}

describe('tsm serve reading a request file', () => {
  it('reads a line that starts with a byte order mark', () => {
    // Before: the first line, initialize, was `-32700 Parse error: Unexpected token '\uFEFF'` with id null.
    const r = serve(`\uFEFF${INITIALIZE}\n${search(2)}\n\uFEFF${search(3)}\n`);
    expect(r.replies.find((x) => x.id === 1)?.result?.serverInfo?.name).toBe('tsm');
    for (const id of [2, 3]) expect(JSON.parse(r.replies.find((x) => x.id === id).result.content[0].text).results[0].path).toBe('knowledge/sync.md');
    expect(r.replies.filter((x) => 'error' in x)).toEqual([]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('answers a last line that has no newline, and a cut-off one with a parse error', () => {
    // Before: both were dropped at the end of input; the server exited 0 with no answer for id 2.
    const whole = serve(`${INITIALIZE}\n${search(2)}`);
    expect(JSON.parse(whole.replies.find((x) => x.id === 2).result.content[0].text).results[0].path).toBe('knowledge/sync.md');
    expect(whole.code).toBe(0);
    const cut = serve(`${INITIALIZE}\n${search(3).slice(0, 40)}`);
    expect(cut.replies.map((x) => x.id)).toEqual([1, null]);
    expect(cut.replies[1].error).toMatchObject({ code: -32700, message: expect.stringMatching(/^Parse error: /) });
    expect(cut.code).toBe(0);
  });

  it('writes what a client sent to stderr as one short line, without terminal escapes', () => {
    // Before: the parse error quoted the line raw (`ESC [31m`, `ESC ]0;title BEL` reached the terminal), and a
    // response to an id the server never sent was echoed whole: a 300 kB stderr line.
    const garbage = '\u001b[31mred\u001b]0;title\u0007';
    const response = JSON.stringify({ jsonrpc: '2.0', id: 77, result: { text: `\u001b[2J${'a'.repeat(300_000)}` } });
    const r = serve(`${INITIALIZE}\n${garbage}\n${response}\n`);
    expect(r.replies.find((x) => x.id === null)?.error.code).toBe(-32700);
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^tsm serve: refused a message: Parse error: .*"red" is not valid JSON$/);
    expect(lines[1]).toMatch(/^tsm serve: Received a response for an unknown message ID: .*…$/);
    for (const line of lines) {
      expect(line).not.toMatch(/[\u0000-\u001f\u007f]/);
      expect(line.length).toBeLessThan(1_100);
    }
    expect(r.code).toBe(0);
  });

  it('answers both requests of an id sent twice before the input ended', () => {
    // Before: the ping's answer took id 5 off the requests awaited, and the server exited before hook_context's.
    const hook = JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'hook_context', arguments: { prompt: 'how does the sync engine keep notes in step', session_id: 'abc' } } });
    const r = serve(`${INITIALIZE}\n${hook}\n{"jsonrpc":"2.0","id":5,"method":"ping"}\n`);
    const fives = r.replies.filter((x) => x.id === 5);
    expect(fives).toHaveLength(2);
    expect(fives.some((x) => x.result?.content?.[0]?.text.includes('knowledge/sync.md'))).toBe(true);
    expect(r.code).toBe(0);
  });

  it('runs no request cancelled before it began (read in the same write), and answers the rest', () => {
    // Requests are handed to the SDK one per turn of the event loop (so a SIGTERM is seen between them); a
    // cancellation read while its request still waited there let the request run and be answered.
    const cancel = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5 } });
    const r = serve(`${INITIALIZE}\n${search(5)}\n${cancel}\n${search(6)}\n`);
    expect(r.replies.map((x) => x.id)).toEqual([1, 6]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
