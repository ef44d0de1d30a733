// The stdio transport of `tsm serve`: newline-delimited JSON-RPC, like the SDK's StdioServerTransport,
// but every line is checked first (jsonrpc-guard.ts) and a bad one is answered, never fatal. The SDK's
// reader drops a line it cannot parse without a word (the client waits forever for that id) and closes
// the transport, and with it the server, on a line over 10 MB.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { checkLine, ID_SCAN_CHARS, ID_TAIL_CHARS, MAX_MESSAGE_BYTES, tooLarge, type ErrorReply } from './jsonrpc-guard.js';

const NEWLINE = 0x0a;
/** The code of a request left unanswered as the server stops (the SDK's ErrorCode.ConnectionClosed). */
const NOT_RUN = -32000;

export class GuardedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** Pieces of the line being read, and their total size. */
  private parts: Buffer[] = [];
  private size = 0;
  /** Past MAX_MESSAGE_BYTES: the rest of the line is dropped; its beginning and end are kept to find the id. */
  private oversized: string | null = null;
  private tail: Buffer = Buffer.alloc(0);
  private closed = false;

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
  ) {}

  private readonly onData = (chunk: Buffer) => {
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, from);
      const piece = chunk.subarray(from, nl === -1 ? chunk.length : nl);
      this.take(piece);
      if (nl === -1) return;
      this.endLine();
      from = nl + 1;
    }
  };

  private readonly onStreamError = (err: Error) => this.onerror?.(err);

  /** Called once stdin has ended, after its last line is read. */
  oninputend?: () => void;

  /**
   * The last line of the input need not end in a newline (a request file saved without one, `printf … |
   * tsm serve`): it is a line all the same, answered like any other (one cut off mid-message: a parse error).
   * Dropped at the end of input, its request got no answer and the server exited 0 as if all were done.
   * Told once the messages read before it have been handed on (deliverNext).
   */
  private readonly onEnd = () => {
    if (this.size > 0 || this.oversized !== null) this.endLine();
    this.inputEnded = true;
    if (this.queue.length === 0) this.oninputend?.();
  };

  /**
   * Messages read and not yet handed to the server, handed on one per turn of the event loop (deliverNext).
   * Handed on as read, a chunk of 50 searches ran back to back (the SDK starts each handler in a microtask,
   * and tools run synchronously), and a SIGTERM waited for all of them: 2.8–3.3 s on a 3,000-note vault.
   * Now a signal is seen after the request in hand, and stopTaking answers the ones still here.
   */
  private queue: JSONRPCMessage[] = [];
  private inputEnded = false;
  private stopped = false;

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.oversized !== null) {
      this.tail = Buffer.concat([this.tail, piece]).subarray(-ID_TAIL_CHARS);
      return;
    }
    this.size += piece.length;
    this.parts.push(piece);
    if (this.size > MAX_MESSAGE_BYTES) {
      const all = Buffer.concat(this.parts);
      this.oversized = all.toString('utf8', 0, ID_SCAN_CHARS);
      this.tail = Buffer.from(all.subarray(-ID_TAIL_CHARS));
      this.parts = [];
    }
  }

  private endLine(): void {
    if (this.stopped) return;
    const head = this.oversized;
    const tail = this.tail.toString('utf8');
    const line = head === null ? Buffer.concat(this.parts, this.size).toString('utf8').replace(/\r$/, '') : '';
    this.parts = [];
    this.size = 0;
    this.oversized = null;
    this.tail = Buffer.alloc(0);
    if (head !== null) return this.refuse(tooLarge(head, tail));
    if (line.trim() === '') return;
    const checked = checkLine(line);
    if (!checked.ok) return this.refuse(checked.reply);
    this.track(checked.message);
    this.dropCancelled(checked.message);
    this.queue.push(checked.message);
    this.scheduleDelivery();
  }

  private deliveryScheduled = false;

  private scheduleDelivery(): void {
    if (this.deliveryScheduled || this.queue.length === 0) return;
    this.deliveryScheduled = true;
    setImmediate(this.deliverNext);
  }

  /**
   * A cancellation of a request still queued takes the request out: it is never run, as the SDK never ran one
   * handed on in the same chunk as its cancellation (it aborted the handler before it started). Queued, it ran
   * and was answered. The notification still goes on (for a request of that id already under way).
   */
  private dropCancelled(message: JSONRPCMessage): void {
    if (!('method' in message) || 'id' in message || message.method !== 'notifications/cancelled') return;
    const key = JSON.stringify((message.params as { requestId?: unknown } | undefined)?.requestId);
    const at = this.queue.findIndex((m) => 'method' in m && 'id' in m && JSON.stringify(m.id) === key);
    if (at >= 0) this.queue.splice(at, 1);
  }

  /** Hands the oldest message read to the server; the next goes at the next turn, after any signal. */
  private readonly deliverNext = () => {
    this.deliveryScheduled = false;
    const message = this.queue.shift();
    if (message === undefined) return;
    this.scheduleDelivery();
    try {
      this.onmessage?.(message);
    } catch (err) {
      // As the SDK's own reader does: a handler that throws is reported, and the next line is read.
      this.onerror?.(err instanceof Error ? err : new Error(String(err)));
    }
    if (this.queue.length === 0 && this.inputEnded) this.oninputend?.();
  };

  /**
   * Stops taking requests (a signal asks the server to stop): nothing more is read, and each request read
   * but not yet handed on is answered at once with `why` (code -32000, which the SDK's client also gives
   * requests a closed connection leaves unanswered), so a client knows it was not run and may send it
   * again. The requests in hand are left to finish (settle waits for them).
   */
  stopTaking(why: string): void {
    if (this.stopped) return;
    this.stopped = true;
    this.stdin.off('data', this.onData);
    this.stdin.pause();
    for (const message of this.queue.splice(0)) {
      if ('method' in message && 'id' in message) void this.send({ jsonrpc: '2.0', id: message.id, error: { code: NOT_RUN, message: why } });
    }
  }

  private refuse(reply: ErrorReply): void {
    this.onerror?.(new Error(`refused a message: ${reply.error.message}`));
    void this.write(reply);
  }

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('end', this.onEnd);
    this.stdin.on('error', this.onStreamError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if ('id' in message && !('method' in message)) this.answered(message.id);
    return this.write(message);
  }

  /**
   * Requests handed to the server and not answered yet, counted by their id's JSON (1 and "1" are two), so
   * that the end of input can wait for their answers (settle). Counted, not kept as a set: a client may send
   * an id again while its first request is under way, and the server answers both; as a set, the first
   * answer took the id off, and a `hook_context` and a `ping` sent as id 5 before the input ended got the
   * ping's answer only. A request the client cancels gets no answer (the SDK drops it), so its cancellation
   * answers it here.
   */
  private readonly unanswered = new Map<string, number>();
  private whenAnswered: (() => void)[] = [];

  private track(message: JSONRPCMessage): void {
    if (!('method' in message)) return;
    if ('id' in message) {
      const key = JSON.stringify(message.id);
      this.unanswered.set(key, (this.unanswered.get(key) ?? 0) + 1);
    } else if (message.method === 'notifications/cancelled') this.answered((message.params as { requestId?: unknown } | undefined)?.requestId);
  }

  private answered(id: unknown): void {
    const key = JSON.stringify(id);
    const left = this.unanswered.get(key);
    if (left === undefined) return;
    if (left > 1) return void this.unanswered.set(key, left - 1);
    this.unanswered.delete(key);
    if (this.unanswered.size > 0) return;
    for (const resolve of this.whenAnswered.splice(0)) resolve();
  }

  /** The last line written has left for stdout (written or failed): every earlier one has too. */
  private flushed: Promise<void> = Promise.resolve();

  /**
   * Resolves once every request read so far is answered and every answer has left for stdout, or after `ms`,
   * whichever is first. For the end of input: `tsm serve < requests.jsonl` exited on the spot and sent 0 to
   * 200 of 200 answers, varying by run (the SDK aborts the answers not yet sent when the connection closes,
   * and process.exit drops the lines still queued for a pipe).
   */
  async settle(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    const answered = this.unanswered.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => this.whenAnswered.push(resolve));
    await Promise.race([answered.then(() => this.flushed), late]);
    clearTimeout(timer);
  }

  /**
   * Resolves at stdout's next 'drain': one promise, and one listener, for every write made while stdout is
   * full. A listener per write passed Node's limit of 10 when many answers were pending (50 concurrent
   * searches) and printed a MaxListenersExceededWarning on stderr.
   */
  private drained: Promise<void> | null = null;

  /**
   * Writes at once, in call order: stdout keeps every line even when it is over its buffer size, so no line
   * waits in a queue of ours or is dropped. Only the caller waits, until stdout has drained.
   */
  private write(message: unknown): Promise<void> {
    if (this.closed) return Promise.resolve();
    let fits = true;
    this.flushed = new Promise((resolve) => (fits = this.stdout.write(`${JSON.stringify(message)}\n`, () => resolve())));
    if (fits) return Promise.resolve();
    this.drained ??= new Promise((resolve) => {
      this.stdout.once('drain', () => {
        this.drained = null;
        resolve();
      });
    });
    return this.drained;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('error', this.onStreamError);
    this.stdin.pause();
    this.parts = [];
    this.queue = [];
    this.onclose?.();
  }
}
