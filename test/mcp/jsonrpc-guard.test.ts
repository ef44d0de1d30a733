import { afterEach, describe, expect, it, vi } from 'vitest';
import { CallToolRequestSchema, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { checkLine, lastMemberId, MAX_DEPTH, MAX_ID_CHARS, nestingDepth, tooLarge, topLevelId } from '../../src/mcp/jsonrpc-guard.js';

describe('checkLine', () => {
  it('passes a JSON-RPC message through', () => {
    const c = checkLine('{"jsonrpc":"2.0","id":7,"method":"ping"}');
    expect(c).toEqual({ ok: true, message: { jsonrpc: '2.0', id: 7, method: 'ping' } });
  });

  it('answers text that is not JSON with a parse error, id null', () => {
    const c = checkLine('{"jsonrpc":"2.0","id":7,');
    expect(c.ok).toBe(false);
    if (!c.ok) expect(c.reply).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it('answers JSON that is not JSON-RPC with an invalid request, with its id when it has one', () => {
    for (const [line, id] of [
      ['{"id":"a-1","hello":1}', 'a-1'],
      ['{"jsonrpc":"1.0","id":3,"method":"ping"}', 3],
      ['[{"jsonrpc":"2.0","id":1,"method":"ping"}]', null],
      ['"just a string"', null],
      ['{"jsonrpc":"2.0","id":1.5,"method":"ping"}', null],
    ] as const) {
      const c = checkLine(line);
      expect(c.ok, line).toBe(false);
      if (!c.ok) expect(c.reply, line).toMatchObject({ id, error: { code: -32600 } });
    }
  });

  it('refuses nesting deeper than the limit before parsing, keeping the id', () => {
    const deep = `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"arguments":{"q":${'['.repeat(MAX_DEPTH)}${']'.repeat(MAX_DEPTH)}}}}`;
    const c = checkLine(deep);
    expect(c.ok).toBe(false);
    if (!c.ok) expect(c.reply).toMatchObject({ id: 9, error: { code: -32600, message: expect.stringMatching(/nested deeper than 64/) } });
    // brackets inside strings do not count
    expect(checkLine(`{"jsonrpc":"2.0","id":1,"method":"x","params":{"s":"${'['.repeat(500)}"}}`).ok).toBe(true);
  });

  it('answers a request whose params do not fit its MCP method with invalid params, in one line', () => {
    for (const [line, message] of [
      ['{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search","arguments":null}}', 'params.arguments must be an object (got null)'],
      ['{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search","arguments":"LoRa"}}', 'params.arguments must be an object (got a string)'],
      ['{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"arguments":{}}}', 'params.name must be a string (got nothing)'],
      ['{"jsonrpc":"2.0","id":5,"method":"tools/call"}', 'params must be an object (got nothing)'],
    ] as const) {
      const c = checkLine(line);
      expect(c.ok, line).toBe(false);
      if (!c.ok) expect(c.reply, line).toEqual({ jsonrpc: '2.0', id: JSON.parse(line).id, error: { code: -32602, message: `Invalid params: ${message}` } });
    }
    const level = checkLine('{"jsonrpc":"2.0","id":6,"method":"logging/setLevel","params":{"level":"loud"}}');
    expect(level.ok).toBe(false);
    if (!level.ok) expect(level.reply.error.message).toMatch(/^Invalid params: params\.level: [^\n]+$/);
    // Params that fit, methods the SDK has no schema for, and notifications pass to the SDK.
    for (const line of [
      '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"search","arguments":{"query":"x"}}}',
      '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"hook_context"}}',
      '{"jsonrpc":"2.0","id":10,"method":"no/such/method","params":{"a":null}}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    ]) {
      expect(checkLine(line).ok, line).toBe(true);
    }
  });

  it('refuses an id longer than the limit without echoing it', () => {
    const c = checkLine(`{"jsonrpc":"2.0","id":"${'x'.repeat(MAX_ID_CHARS + 1)}","method":"ping"}`);
    expect(c.ok).toBe(false);
    if (!c.ok) expect(c.reply.id).toBeNull();
  });
});

describe('topLevelId', () => {
  it('finds the id of the outer object only, from a line that may be cut off', () => {
    expect(topLevelId('{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"a":[[[[')).toBe(42);
    expect(topLevelId('{"params":{"id":5},"id":"outer"')).toBe('outer');
    expect(topLevelId('{"params":{"id":5}')).toBeNull();
    expect(topLevelId('{"method":"id","x":1}')).toBeNull();
    expect(topLevelId('{"id":"a\\"b"}')).toBe('a"b');
    expect(topLevelId('{"id":1.5}')).toBeNull();
    expect(topLevelId('not json')).toBeNull();
  });

  it('gives an oversized line an answer with its id', () => {
    expect(tooLarge('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{"query":"aaaa')).toMatchObject({
      id: 3,
      error: { code: -32600, message: expect.stringMatching(/message longer than \d+ bytes/) },
    });
  });
});

describe('nestingDepth', () => {
  it('counts brackets outside strings, with escapes', () => {
    expect(nestingDepth('{"a":[1,{"b":2}]}', 99)).toBe(3);
    expect(nestingDepth('{"a":"[[[\\"[["}', 99)).toBe(1);
    expect(nestingDepth('['.repeat(1000), 10)).toBe(11);
  });
});

describe('lastMemberId', () => {
  it('finds an id written last, as the SDK clients write it, and not one inside params', () => {
    expect(lastMemberId('aaaa"}},"jsonrpc":"2.0","id":7}')).toBe(7);
    expect(lastMemberId('aaaa"}},"jsonrpc":"2.0","id":"r-1"}\r')).toBe('r-1');
    expect(lastMemberId('aaaa","id":7}}')).toBeNull();
    expect(lastMemberId('aaaa')).toBeNull();
    expect(tooLarge('{"method":"tools/call","params":{"arguments":{"query":"yyyy', 'yyyy"}},"jsonrpc":"2.0","id":12}').id).toBe(12);
  });
});

describe('any line', () => {
  const line = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.json({ maxDepth: 8 }),
    fc.record({ jsonrpc: fc.constantFrom('2.0', '1.0'), id: fc.oneof(fc.integer(), fc.string(), fc.double(), fc.constant(null)), method: fc.string() }).map((o) => JSON.stringify(o)),
  );

  it('is checked without throwing, and a refusal names a short id or none', () => {
    fc.assert(
      fc.property(line, (l) => {
        const c = checkLine(l);
        if (!c.ok) {
          expect(c.reply.jsonrpc).toBe('2.0');
          expect([-32700, -32600]).toContain(c.reply.error.code);
          const id = c.reply.id;
          expect(id === null || typeof id === 'number' || (typeof id === 'string' && id.length <= MAX_ID_CHARS)).toBe(true);
        }
        topLevelId(l);
        lastMemberId(l);
        tooLarge(l, l);
      }),
      { numRuns: 500 },
    );
  });
});

// zod's plain-object check reads `value.constructor.prototype`: `"constructor": null` in a tool's arguments threw
// out of checkLine and ended the server; `"constructor": 1` was refused as "must be an object (got an object)".
describe('a tool call with members named like Object.prototype', () => {
  const PROTO = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', 'prototype', 'toJSON', 'then'];
  const member = fc.tuple(fc.oneof(fc.constantFrom(...PROTO), fc.string({ maxLength: 12 })), fc.jsonValue({ maxDepth: 3 }));
  // Written as text: an object literal cannot hold an own `__proto__`.
  const object = (members: [string, unknown][], raw: string[] = []) => `{${[...raw, ...members.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`)].join(',')}}`;
  const NOT_EXTRA = new Set(['query', 'name', 'arguments', '_meta', 'task']);

  it('is ignored where a tool does not list it, never refused and never thrown', () => {
    fc.assert(
      fc.property(fc.array(member, { maxLength: 6 }), fc.array(member, { maxLength: 4 }), (args, params) => {
        const extra = (ms: [string, unknown][]) => ms.filter(([k]) => !NOT_EXTRA.has(k));
        const line = `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":${object(extra(params), ['"name":"search"', `"arguments":${object(extra(args), ['"query":"lora"'])}`])}}`;
        const c = checkLine(line);
        expect(c.ok, JSON.stringify(c)).toBe(true);
        if (!c.ok) return;
        const got = (c.message as unknown as { params: { arguments: Record<string, unknown> } }).params.arguments;
        expect(got.query).toBe('lora');
        expect(Object.hasOwn(got, 'constructor') || Object.hasOwn(got, '__proto__')).toBe(false);
        expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
      }),
      { numRuns: 500 },
    );
  });
});

// Whatever a line makes the SDK's schemas throw is that line's JSON-RPC error, never the server's end.
describe('a schema that throws', () => {
  afterEach(() => vi.restoreAllMocks());
  const call = '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"search","arguments":{"query":"lora"}}}';
  const boom = () => {
    throw new TypeError("Cannot read properties of null\n(reading 'prototype')");
  };

  it('in the JSON-RPC check is an invalid request with the id', () => {
    vi.spyOn(JSONRPCMessageSchema, 'safeParse').mockImplementation(boom);
    expect(checkLine(call)).toEqual({
      ok: false,
      reply: { jsonrpc: '2.0', id: 8, error: { code: -32600, message: "Invalid Request: the message could not be read (Cannot read properties of null (reading 'prototype'))" } },
    });
  });

  it("in the method's params check is invalid params with the id", () => {
    vi.spyOn(CallToolRequestSchema, 'safeParse').mockImplementation(boom);
    expect(checkLine(call)).toEqual({
      ok: false,
      reply: { jsonrpc: '2.0', id: 8, error: { code: -32602, message: "Invalid params: the request could not be read (Cannot read properties of null (reading 'prototype'))" } },
    });
  });
});
