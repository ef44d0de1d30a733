// `tsm serve`: the ten tools over MCP on stdio. stdout carries JSON-RPC only; stderr says only what is
// wrong. The SDK and zod are loaded here, so no other command pays for them. With an embedding model, also
// the vault's resident query embedder (ResidentModel below).
import { existsSync } from 'node:fs';
import type { ResidentEmbedder } from '../embed/query-embedder.js';
import type { QueryVector } from '../embed/socket-protocol.js';
import { openReader, openWriter, type Database } from '../index/db.js';
import type { BackgroundEmbedding } from '../index/embed-job.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../core/version.js';
import { truncateText } from '../text/chars.js';
import { oneLine } from '../text/controls.js';
import type { TsmConfig } from '../vault/config.js';
import { detachFromHere } from '../hooks/detach.js';
import { createContext } from './context.js';
import { errorMessage, ToolError } from './errors.js';
import { GuardedStdioTransport } from './stdio-transport.js';
import { redactAnswer } from './redact-answer.js';
import { argumentSchema, declaredArguments, InvalidArgument, WithNotice, type Tool, type ToolContext } from './tool.js';
import { TOOLS } from './tools/index.js';
import { fileIdentity } from '../vault/file-kind.js';
import { STOP_SIGNALS, stopExitCode } from '../core/signals.js';

/** Sent to the client at initialisation: how the tools fit together. */
export const SERVER_INSTRUCTIONS = [
  "tsm searches the user's markdown vault: daily notes, knowledge notes, and session notes of past Claude Code",
  'sessions. Work from cheap to detailed: `search` (ids + 120-character previews) → `timeline` (what surrounds a hit)',
  'or `get_sections` (full text of chosen ids) → `read_note` (the file with line numbers). `recent_context` shows',
  'recent work without a query; `session_trace` and `file_history` follow past sessions and the files they touched;',
  '`related` follows links; `retrieve_memory` answers in compact markdown. All tools are read-only.',
].join(' ');

export type Log = (line: string) => void;

const stderrLog: Log = (line) => process.stderr.write(`tsm serve: ${line}\n`);

/**
 * Longest string argument a tool takes. Paths, ids and names are far shorter; a query is the exception,
 * cut by its tool to MAX_QUERY_CHARS (with a note) rather than refused, since a pasted log is a fair query;
 * so is hook_context's prompt, which Claude Code fills with whatever the user pasted (cut to its head and
 * tail by the hook's own rule, MAX_PROMPT_CHARS).
 */
export const MAX_ARGUMENT_CHARS = 10_000;
const CUT_BY_TOOL = new Set(['query', 'prompt']);
/** Longest error message: messages quote the argument they refuse, and a refused argument may be huge. */
export const MAX_ERROR_CHARS = 1_000;

/**
 * Runs one tool and turns its outcome into a tool result; a failure is an `isError` result, never a crash,
 * or for a fail-open tool its failOpen answer.
 */
export async function callTool(tool: Tool, given: Record<string, unknown>, ctx: ToolContext, log: Log = stderrLog): Promise<CallToolResult> {
  const args = declaredArguments(tool, given);
  try {
    for (const [name, value] of Object.entries(args)) {
      // Only a fail-open tool's schema lets a bad value through this far (argumentSchema); the SDK's own
      // message for the others reads the same.
      if (value instanceof InvalidArgument) throw new ToolError(`Input validation error: ${name}: ${value.message}`);
      if (typeof value === 'string' && value.length > MAX_ARGUMENT_CHARS && !CUT_BY_TOOL.has(name)) {
        throw new ToolError(`${name} is ${value.length} characters long; at most ${MAX_ARGUMENT_CHARS} are accepted`);
      }
    }
    const out = await tool.run(args, ctx);
    return textResult(tool.redactsOwnAnswer ? out : out instanceof WithNotice ? new WithNotice(redactAnswer(out.result), redactAnswer(out.notice)) : redactAnswer(out));
  } catch (err) {
    const { message, explained } = errorMessage(err);
    if (!explained) log(`${tool.name}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    const short = truncateText(message.slice(0, 2 * MAX_ERROR_CHARS), MAX_ERROR_CHARS);
    if (tool.failOpen) return textResult(await tool.failOpen(short, args, ctx));
    return { content: [{ type: 'text', text: short }], isError: true };
  }
}

/** A string is sent as is (markdown); anything else as compact JSON; a WithNotice as two such items. */
function textResult(out: unknown): CallToolResult {
  const item = (x: unknown) => ({ type: 'text' as const, text: typeof x === 'string' ? x : JSON.stringify(x) });
  return { content: out instanceof WithNotice ? [item(out.result), item(out.notice)] : [item(out)] };
}

export function createServer(ctx: ToolContext, log: Log = stderrLog): McpServer {
  const server = new McpServer(
    { name: 'tsm', title: 'tsm — the space memory', version: VERSION },
    // `logging`: the "ready" line goes to the client as a log message (see serveStdio).
    { instructions: SERVER_INSTRUCTIONS, capabilities: { logging: {} } },
  );
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: argumentSchema(tool),
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      (args: Record<string, unknown>) => callTool(tool, args, ctx, log),
    );
  }
  return server;
}

/**
 * How long the end of input waits for the answers still owed and their writes: tools answer in milliseconds
 * (hook_context within its hook deadline), so this bounds only a reader that stopped reading.
 */
const INPUT_END_SETTLE_MS = 10_000;
/** A signal asks to stop: lines already written out still go, but the server waits little for anything else. */
const SIGNAL_SETTLE_MS = 500;

/** Serves until the client closes stdin (after answering what it asked) or a signal arrives. */
export async function serveStdio(cfg: TsmConfig): Promise<void> {
  // A stray console.log from any dependency would corrupt the JSON-RPC stream: send them all to stderr.
  for (const method of ['log', 'info', 'debug', 'warn'] as const) {
    console[method] = (...args: unknown[]) => console.error(...args);
  }
  const resident = new ResidentModel(cfg, (level, line) =>
    // Something wrong goes to stderr; progress (vectors stored) to the client's log, like "ready" below.
    level === 'warning' ? stderrLog(line) : void server.server.sendLoggingMessage({ level, logger: 'tsm', data: line }).catch(() => {}),
  );
  const server = createServer(
    // detachHook: hook_context starts the background sync `tsm hook` would (an index an older tsm wrote).
    createContext(cfg, { queryVector: (text) => resident.queryVector(text), detachHook: detachFromHere(process.env, process.cwd()) }),
  );
  const transport = new GuardedStdioTransport();
  let exiting = false;
  // 0 on a signal too: the server ran until it was stopped, as it should (core/signals.ts stopExitCode).
  const exit = (code = 0) => {
    if (exiting) return;
    exiting = true;
    void Promise.allSettled([server.close(), resident.close()]).finally(() => process.exit(code));
  };
  // First the answers to what was already asked, and the lines still queued for stdout (transport.settle).
  const exitSettled = (ms: number, code = 0) => void transport.settle(ms).then(() => exit(code));
  transport.onclose = () => exit();
  // The end of input is not the end of output: `tsm serve < requests.jsonl`, or a client that closes stdin
  // and reads on, still wants the answers. A signal during that wait exits sooner.
  transport.oninputend = () => exitSettled(INPUT_END_SETTLE_MS);
  process.stdout.on('error', () => exit()); // the client went away mid-answer (EPIPE): nobody is left to answer
  // A stderr that cannot be written (a client that closed its end: EPIPE; a log file on a full disk: ENOSPC)
  // drops the line, as every command's writeErr does: there is nowhere left to say it. Unhandled, the
  // stream's 'error' ended the server with exit 1 at its first refused message, the requests after it
  // unanswered and, with an embedding model, its socket file left behind.
  process.stderr.on('error', () => {});
  // SIGHUP: a server started from a terminal that closed. Node resets it to "terminate" at start-up, so
  // without a handler the server died on the spot and left its socket file behind.
  // The requests read and not yet begun are answered as not run (transport.stopTaking): run first, 50 queued
  // searches held a SIGTERM for 2.8–3.3 s on a 3,000-note vault; now it exits within ~0.1 s.
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => {
      transport.stopTaking(`tsm serve is stopping (${signal}): this request was not run; send it again once the server is back`);
      exitSettled(SIGNAL_SETTLE_MS, stopExitCode(signal, false));
    });
  }
  // Something went wrong on the connection (a line the transport refused and answered, a stream error, a
  // response to no request of ours). The message quotes what the client sent: written as it came, a line
  // of `ESC [ 2 J` or `ESC ] 0 ; title BEL` cleared the terminal or retitled it, and a response of 300 kB
  // to an unknown id was a 300 kB stderr line. One line, cleaned as terminal output is, and short.
  server.server.onerror = (err) => stderrLog(truncateText(oneLine(err.message.slice(0, 2 * MAX_ERROR_CHARS)), MAX_ERROR_CHARS));
  // Claude Code shows every stderr line of an MCP server as an error, so a healthy start writes nothing
  // there: "ready" is a log notification to the client, and stderr speaks only when something is wrong.
  const ready = `ready (vault ${cfg.vault}, index ${cfg.db})`;
  server.server.oninitialized = () => {
    void server.server.sendLoggingMessage({ level: 'info', logger: 'tsm', data: ready }).catch(() => {});
  };
  await server.connect(transport);
  if (!existsSync(cfg.db)) stderrLog(`${ready} — no index yet: run \`tsm index\` (tools report this until then)`);
  // After connecting: loading a model takes a second or more, and tool calls need not wait for it.
  await resident.start();
}

/** How often `tsm serve` looks for sections to embed (a watcher or `tsm index` may have written notes). */
const EMBED_CHECK_MS = 30_000;

/**
 * `tsm serve`'s embedding model, when the vault has one (issue 17): loaded once (only here and in the
 * watcher is the runtime imported), it embeds the queries of this server's own searches in process, answers
 * query vectors for `tsm search` on the vault's socket, and gives the index's sections their vectors in the
 * background — the one write `tsm serve` makes, through its own writer connection, and only while no other
 * process holds the socket (a watcher that holds it embeds instead). Without a model nothing of this loads.
 */
class ResidentModel {
  private resident: ResidentEmbedder | null = null;
  private embedding: BackgroundEmbedding | null = null;
  private writer: Database | null = null;
  private writerFile: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly cfg: TsmConfig,
    private readonly log: (level: 'info' | 'warning', line: string) => void,
  ) {}

  async start(): Promise<void> {
    const { configuredModel, startResidentEmbedder } = await import('../embed/query-embedder.js');
    if (this.closed || configuredModel(this.cfg) === null) return;
    const { VectorsInMemory } = await import('../index/vectors-in-memory.js');
    const warn = (m: string) => this.log('warning', m);
    const resident = await startResidentEmbedder(this.cfg, warn, () => new VectorsInMemory(this.cfg.db, warn));
    if (!resident) return;
    if (this.closed) return void (await resident.close());
    this.resident = resident;
    this.log('info', `embedding model ${resident.embedder.spec.name} loaded${resident.server ? `; query vectors on ${resident.server.path}` : ''}`);
    const { BackgroundEmbedding } = await import('../index/embed-job.js');
    const { CLAIM_EVERY_MS } = await import('../embed/query-embedder.js');
    // While another resident (a watcher) answers for the vault, it embeds; should it stop, this one takes over.
    const servingAtStart = resident.server !== null;
    resident.whenServing(CLAIM_EVERY_MS, (server) => {
      if (this.closed) return;
      // No server: the socket cannot be made (a warning said why); this server embeds all the same.
      if (!servingAtStart && server) this.log('info', `query vectors on ${server.path} (the process that answered before has stopped)`);
      this.embedding = new BackgroundEmbedding(
        () => this.openWriter(),
        resident.embedder,
        (m) => this.log(/failed/.test(m) ? 'warning' : 'info', m),
        () => resident.vectorsStored(),
        () => void resident.standDown(),
      );
      this.embedding.kick();
      this.timer = setInterval(() => this.embedding?.kick(), EMBED_CHECK_MS);
      this.timer.unref();
    });
  }

  async queryVector(text: string): Promise<QueryVector | undefined> {
    if (!this.resident || !text.trim()) return undefined;
    try {
      return await this.resident.queryVector(text);
    } catch (err) {
      this.log('warning', `embedding a query failed (${(err as Error).message}); searching lexically`);
      return undefined;
    }
  }

  /**
   * The writer connection for the embedding job, opened once there is an index of this version: serve never
   * creates, rebuilds or empties one (openWriter would rebuild an index of another schema version; the
   * reader's check says no instead, and `tsm index` or the watcher rebuilds it).
   */
  private openWriter(): Database | null {
    if (this.closed) return null;
    // An index deleted or replaced since (a rebuild by `tsm index --full` elsewhere, a restore): writing on
    // would store vectors in a file nobody reads.
    const identity = fileIdentity(this.cfg.db);
    if (this.writer && identity !== this.writerFile) {
      this.writer.close();
      this.writer = null;
    }
    if (!this.writer && identity !== null) {
      try {
        openReader(this.cfg.db).close();
      } catch {
        return null;
      }
      this.writer = openWriter(this.cfg.db, { vault: this.cfg.vault }).db;
      this.writerFile = identity;
    }
    return this.writer;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.embedding?.close();
    await this.resident?.close();
    this.writer?.close();
  }
}

