// What `tsm serve` accepts on stdin, checked before the SDK sees a line. The SDK's own stdio reader
// answers nothing to a line it cannot parse or validate (it only calls onerror), and closes the whole
// transport — so the server exits — when one line passes 10 MB. Here every line gets an answer or a
// message: too large, nested too deep, not JSON, not JSON-RPC each become a JSON-RPC error with the
// request's id when one can be found (JSON-RPC 2.0 §5: `null` when it cannot), and a request of an MCP
// method whose params have the wrong shape an "Invalid params" error.
import { ClientNotificationSchema, ClientRequestSchema, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Longest line read. An MCP tool call is a few kilobytes (a search query is cut at 10,000 characters). */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/**
 * Deepest nesting of arrays and objects. tsm's tool arguments are two levels deep; a JSON document nested
 * 5,000,000 deep took the unguarded server 5 s of CPU in JSON.parse and zod before it could answer.
 */
export const MAX_DEPTH = 64;
/** Longest request id echoed back: an id is a counter or a UUID, not a payload. */
export const MAX_ID_CHARS = 256;
/** How much of the start of an oversized line is kept to find its id. */
export const ID_SCAN_CHARS = 64 * 1024;
/** …and of its end: the SDK's clients write `id` last (`{"method":…,"params":…,"jsonrpc":"2.0","id":7}`). */
export const ID_TAIL_CHARS = 1024;

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;

/**
 * The SDK's schema of each request an MCP client may send, by method. The SDK checks a request's params
 * with it only inside the method's handler, and answers a mismatch (`"arguments": null` in tools/call) as
 * -32603 with zod's multi-line dump of the issues; here it is -32602 with one line.
 */
const REQUEST_SCHEMAS = new Map<string, (typeof ClientRequestSchema.options)[number]>(ClientRequestSchema.options.map((schema) => [schema.shape.method.value, schema]));

/**
 * The notifications an MCP client sends. Sent with an id, one is a request of a method no server has: the SDK
 * answered `-32601 Method not found` for `notifications/initialized` (the server knows it well), and a
 * `notifications/cancelled` so sent cancelled nothing, without a word on why.
 */
const NOTIFICATION_METHODS = new Set<string>(ClientNotificationSchema.options.map((schema) => schema.shape.method.value));

export const METHOD_NOT_FOUND = -32601;

export type RequestId = string | number;

export interface ErrorReply {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: { code: number; message: string };
}

export type Checked = { ok: true; message: JSONRPCMessage } | { ok: false; reply: ErrorReply };

function reply(id: RequestId | null, code: number, message: string): ErrorReply {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** One complete line from the client: the message, or the error to answer with. */
export function checkLine(text: string): Checked {
  // A byte order mark opens the file a request list was saved to (Notepad's "UTF-8 with BOM", PowerShell 5's
  // `Out-File`), and each file of several sent one after another: no JSON text starts with U+FEFF, and RFC
  // 8259 §8.1 lets a reader ignore it. Read as JSON, it made the first line, `initialize`, a parse error.
  const line = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const depth = nestingDepth(line, MAX_DEPTH);
  if (depth > MAX_DEPTH) {
    return { ok: false, reply: reply(topLevelId(line), INVALID_REQUEST, `Invalid Request: JSON nested deeper than ${MAX_DEPTH} levels`) };
  }
  let value: unknown;
  try {
    value = JSON.parse(line, withoutPrototypeKeys);
  } catch (err) {
    return { ok: false, reply: reply(null, PARSE_ERROR, `Parse error: ${(err as Error).message.slice(0, 200)}`) };
  }
  const id = idOf(value);
  if (id === 'too long') return { ok: false, reply: reply(null, INVALID_REQUEST, `Invalid Request: id longer than ${MAX_ID_CHARS} characters`) };
  // The SDK's schemas are a library's code: whatever a line makes them throw is this line's error, never the
  // server's end (zod read `"constructor": null` as a class and threw out of here; the reviver drops it now).
  let parsed: ReturnType<typeof JSONRPCMessageSchema.safeParse>;
  try {
    parsed = JSONRPCMessageSchema.safeParse(value);
  } catch (err) {
    return { ok: false, reply: reply(id, INVALID_REQUEST, `Invalid Request: the message could not be read (${thrown(err)})`) };
  }
  if (!parsed.success) {
    const what = Array.isArray(value) ? 'a batch (an array) is not accepted: send one message per line' : 'not a JSON-RPC 2.0 message';
    return { ok: false, reply: reply(id, INVALID_REQUEST, `Invalid Request: ${what}`) };
  }
  const message = parsed.data;
  if ('method' in message && 'id' in message && NOTIFICATION_METHODS.has(message.method)) {
    return { ok: false, reply: reply(id, METHOD_NOT_FOUND, `Method not found: ${message.method} is a notification, which has no id: send it without one`) };
  }
  let problem: string | null;
  try {
    problem = paramsProblem(parsed.data);
  } catch (err) {
    problem = `the request could not be read (${thrown(err)})`;
  }
  if (problem !== null) return { ok: false, reply: reply(id, INVALID_PARAMS, `Invalid params: ${problem}`) };
  return { ok: true, message: parsed.data };
}

/** A throw's message in one short line, for an error reply. */
function thrown(err: unknown): string {
  return String((err as Error)?.message ?? err).replace(/\s+/g, ' ').slice(0, 200);
}

/**
 * JSON.parse's reviver: an object's own `constructor` or `__proto__` member is dropped. No MCP message or
 * tsm argument has one, and an argument a tool does not list is ignored; but zod's plain-object check
 * reads `value.constructor.prototype`, so `"constructor": 1` in a tool's arguments was refused as "must be
 * an object (got an object)", and `"constructor": null` threw out of the check and ended the server.
 */
function withoutPrototypeKeys(this: unknown, key: string, value: unknown): unknown {
  return (key === 'constructor' || key === '__proto__') && !Array.isArray(this) ? undefined : value;
}

/** What is wrong with a request's params for its method, in one line; null when they fit (or it is no MCP request). */
export function paramsProblem(message: JSONRPCMessage): string | null {
  const schema = 'method' in message && 'id' in message ? REQUEST_SCHEMAS.get(message.method) : undefined;
  if (!schema) return null;
  const parsed = schema.safeParse(message);
  if (parsed.success) return toolNameProblem(parsed.data);
  const issue = parsed.error.issues[0];
  const at = issue.path.map(String).join('.') || 'the request';
  const text =
    issue.code === 'invalid_type'
      ? `${at} must be ${withArticle(issue.expected === 'record' ? 'object' : issue.expected)} (got ${kindOf(valueAt(message, issue.path))})`
      : `${at}: ${issue.message}`;
  return text.replace(/\s+/g, ' ').slice(0, 300);
}

/** Longest tool name: MCP's own bound (tool names have 1 to 128 characters); tsm's are far shorter. */
export const MAX_TOOL_NAME_CHARS = 128;

/**
 * A tools/call naming a member every object inherits (`constructor`, `toString`, `__proto__`…): the SDK looks
 * a tool up in a plain object, found Object's own member there and answered "Tool constructor disabled", as
 * if tsm had such a tool switched off. No tsm tool has such a name. Nor is one longer than a tool name may
 * be, which the SDK's "Tool … not found" quoted whole: 1,000,039 characters for a name of a million.
 */
function toolNameProblem(request: { method: string; params?: unknown }): string | null {
  const name = request.method === 'tools/call' ? (request.params as { name?: unknown } | undefined)?.name : undefined;
  if (typeof name !== 'string') return null;
  if (name.length > MAX_TOOL_NAME_CHARS) return `params.name is ${name.length} characters long; no tool name has more than ${MAX_TOOL_NAME_CHARS} (tools/list names the tools)`;
  if (!(name in Object.prototype)) return null;
  return `params.name: no tool is named ${JSON.stringify(name)} (tools/list names the tools)`;
}

function valueAt(value: unknown, path: PropertyKey[]): unknown {
  return path.reduce<unknown>((v, key) => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key] : undefined), value);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  return withArticle(Array.isArray(value) ? 'array' : typeof value);
}

function withArticle(kind: string): string {
  return /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`;
}

/** The answer to a line longer than MAX_MESSAGE_BYTES, of which `head` is the beginning and `tail` the end. */
export function tooLarge(head: string, tail = ''): ErrorReply {
  return reply(topLevelId(head) ?? lastMemberId(tail), INVALID_REQUEST, `Invalid Request: message longer than ${MAX_MESSAGE_BYTES} bytes`);
}

const LAST_ID = /"id"\s*:\s*(-?\d{1,15}|"((?:[^"\\]|\\.){0,256})")\s*\}\s*$/;

/**
 * The id when it is the last member of the line's outer object: followed by the one `}` that ends the
 * line (an `id` inside params would be followed by two or more).
 */
export function lastMemberId(tail: string): RequestId | null {
  return idOfMatch(LAST_ID.exec(tail));
}

function idOf(value: unknown): RequestId | null | 'too long' {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  if (typeof id === 'string') return id.length > MAX_ID_CHARS ? 'too long' : id;
  if (typeof id === 'number' && Number.isSafeInteger(id)) return id;
  return null;
}

/**
 * The deepest nesting of `[` and `{` outside strings, counting stops past `max` (so a hostile line costs
 * one pass and no recursion).
 */
export function nestingDepth(text: string, max: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > max) return deepest;
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

const ID_VALUE = /^\s*:\s*(-?\d{1,15}(?![.\deE])|"((?:[^"\\]|\\.){0,256})")/;

/**
 * The `id` member of the top-level object at the start of `text`, without parsing the rest (which may be
 * too large, too deep or cut off); null when there is none or it is not a valid id.
 */
export function topLevelId(text: string): RequestId | null {
  const head = text.slice(0, ID_SCAN_CHARS);
  let depth = 0;
  for (let i = 0; i < head.length; i++) {
    const c = head.charCodeAt(i);
    if (c === 0x22) {
      const start = i;
      for (i++; i < head.length && head.charCodeAt(i) !== 0x22; i++) if (head.charCodeAt(i) === 0x5c) i++;
      // A key of the top-level object is a string at depth 1 followed by a colon.
      if (depth === 1 && head.slice(start, i + 1) === '"id"') {
        return idOfMatch(ID_VALUE.exec(head.slice(i + 1, i + 1 + MAX_ID_CHARS + 16)));
      }
    } else if (c === 0x5b || c === 0x7b) depth++;
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return null;
}

/** The id an ID_VALUE / LAST_ID match holds: group 1 a number, group 2 a JSON string's inside; null if none. */
function idOfMatch(m: RegExpExecArray | null): RequestId | null {
  if (!m) return null;
  if (m[2] === undefined) return Number(m[1]);
  try {
    return JSON.parse(`"${m[2]}"`) as string;
  } catch {
    return null;
  }
}
