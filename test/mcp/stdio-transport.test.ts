import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_BYTES } from '../../src/mcp/jsonrpc-guard.js';
import { GuardedStdioTransport } from '../../src/mcp/stdio-transport.js';

function setup() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const t = new GuardedStdioTransport(stdin, stdout);
  const messages: unknown[] = [];
  const errors: string[] = [];
  let out = '';
  stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  t.onmessage = (m) => void messages.push(m);
  t.onerror = (e) => void errors.push(e.message);
  return { stdin, t, messages, errors, replies: () => out.split('\n').filter(Boolean).map((l) => JSON.parse(l)) };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('GuardedStdioTransport', () => {
  it('reassembles lines split anywhere, even inside a UTF-8 character, and takes CRLF', async () => {
    const s = setup();
    await s.t.start();
    const line = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"q":"消費電力"}}\r\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n\n');
    const cut = line.indexOf(Buffer.from('費')) + 1; // inside a three-byte character
    s.stdin.write(line.subarray(0, cut));
    s.stdin.write(line.subarray(cut));
    await tick();
    await tick(); // one message handed on per turn of the event loop
    expect(s.messages).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'ping', params: { q: '消費電力' } },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ]);
    expect(s.replies()).toEqual([]);
  });

  it('answers a line over the limit with its id without keeping it, then reads on', async () => {
    const s = setup();
    await s.t.start();
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    s.stdin.write('{"jsonrpc":"2.0","method":"tools/call","params":{"q":"');
    for (let n = 0; n <= MAX_MESSAGE_BYTES / chunk.length; n++) s.stdin.write(chunk);
    s.stdin.write('"},"id":"last"}\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
    await tick();
    expect(s.replies()).toEqual([{ jsonrpc: '2.0', id: 'last', error: { code: -32600, message: `Invalid Request: message longer than ${MAX_MESSAGE_BYTES} bytes` } }]);
    expect(s.messages).toEqual([{ jsonrpc: '2.0', id: 3, method: 'ping' }]);
    expect(s.errors).toHaveLength(1);
  });

  it('keeps many answers written to a full stdout in order, waiting on one drain listener', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough({ highWaterMark: 64 }); // nobody reads yet: full after the first answer
    const t = new GuardedStdioTransport(stdin, stdout);
    await t.start();
    const warnings: string[] = [];
    const onWarning = (w: Error) => void warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      let settled = 0;
      const sent = Array.from({ length: 100 }, (_, id) => t.send({ jsonrpc: '2.0', id, result: { text: 'x'.repeat(100) } }).then(() => void settled++));
      await tick();
      expect(stdout.listenerCount('drain'), 'one listener for all the waiting writes').toBeLessThanOrEqual(1);
      expect(settled, 'the writers wait while stdout is full').toBeLessThan(100);
      let out = '';
      stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      await Promise.all(sent);
      await tick();
      const ids = out.split('\n').filter(Boolean).map((l) => JSON.parse(l).id);
      expect(ids).toEqual(Array.from({ length: 100 }, (_, id) => id));
      expect(stdout.listenerCount('drain')).toBe(0);
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('sends nothing after close, and closes once', async () => {
    const s = setup();
    let closed = 0;
    s.t.onclose = () => void closed++;
    await s.t.start();
    await s.t.close();
    await s.t.close();
    await s.t.send({ jsonrpc: '2.0', id: 1, result: {} });
    s.stdin.write('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    await tick();
    expect(closed).toBe(1);
    expect(s.replies()).toEqual([]);
    expect(s.messages).toEqual([]);
  });

  it('settles once every request read is answered (a cancelled one counts) and its line written, or after the wait', async () => {
    const s = setup();
    await s.t.start();
    s.stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":"1","method":"ping"}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    await tick();
    let settled = false;
    const settling = s.t.settle(60_000).then(() => void (settled = true));
    await s.t.send({ jsonrpc: '2.0', id: 1, result: {} });
    await tick();
    expect(settled, 'id "1" is another request than id 1').toBe(false);
    s.stdin.write('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"1"}}\n');
    await settling;
    expect(s.replies()).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
    // A request nobody answers holds the end of input for the wait given, no longer.
    s.stdin.write('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    await tick();
    const started = Date.now();
    await s.t.settle(50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('hands messages on one per turn of the event loop; stopTaking answers the rest as not run and reads no more', async () => {
    const s = setup();
    await s.t.start();
    let ended = 0;
    s.t.oninputend = () => void ended++;
    const ping = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"ping"}\n`;
    s.stdin.write(ping(1) + ping(2) + '{"jsonrpc":"2.0","method":"notifications/initialized"}\n' + ping(3));
    await tick();
    // Before: all four in the same turn, so a signal waited for every handler.
    expect(s.messages).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
    s.t.stopTaking('stopping');
    s.stdin.write(ping(4));
    s.stdin.end();
    await tick();
    await tick();
    expect(s.messages).toHaveLength(1);
    expect(s.replies()).toEqual([
      { jsonrpc: '2.0', id: 2, error: { code: -32000, message: 'stopping' } },
      { jsonrpc: '2.0', id: 3, error: { code: -32000, message: 'stopping' } },
    ]);
    expect(ended).toBe(0);
    // What is left to settle is the one in hand.
    let settled = false;
    const settling = s.t.settle(60_000).then(() => void (settled = true));
    await tick();
    expect(settled).toBe(false);
    await s.t.send({ jsonrpc: '2.0', id: 1, result: {} });
    await settling;
  });

  it('tells of the end of input once the messages read before it are handed on', async () => {
    const s = setup();
    await s.t.start();
    let messagesAtEnd = -1;
    s.t.oninputend = () => void (messagesAtEnd = s.messages.length);
    s.stdin.end('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}');
    for (let i = 0; i < 5; i++) await tick();
    expect(messagesAtEnd).toBe(2);
  });

  it('takes a request cancelled while it waits out of the queue; it is not handed on', async () => {
    const s = setup();
    await s.t.start();
    s.stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}\n');
    for (let i = 0; i < 4; i++) await tick();
    expect(s.messages).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } },
    ]);
  });
});
