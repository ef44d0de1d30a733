// `tsm serve`: the ten tools over MCP on stdio. stdout carries JSON-RPC only; stderr says only what is
// wrong. The SDK and zod are loaded here, so no other command pays for them.
import { existsSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../core/version.js';
import { truncateText } from '../text/chars.js';
import type { TsmConfig } from '../vault/config.js';
import { createContext } from './context.js';
import { errorMessage, ToolError } from './errors.js';
import { GuardedStdioTransport } from './stdio-transport.js';
import type { Tool, ToolContext } from './tool.js';
import { TOOLS } from './tools/index.js';

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

/** Runs one tool and turns its outcome into a tool result; a failure is an `isError` result, never a crash. */
export async function callTool(tool: Tool, args: Record<string, unknown>, ctx: ToolContext, log: Log = stderrLog): Promise<CallToolResult> {
  try {
    for (const [name, value] of Object.entries(args)) {
      if (typeof value === 'string' && value.length > MAX_ARGUMENT_CHARS && !CUT_BY_TOOL.has(name)) {
        throw new ToolError(`${name} is ${value.length} characters long; at most ${MAX_ARGUMENT_CHARS} are accepted`);
      }
    }
    const out = await tool.run(args, ctx);
    return { content: [{ type: 'text', text: typeof out === 'string' ? out : JSON.stringify(out) }] };
  } catch (err) {
    const { message, explained } = errorMessage(err);
    if (!explained) log(`${tool.name}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return { content: [{ type: 'text', text: truncateText(message.slice(0, 2 * MAX_ERROR_CHARS), MAX_ERROR_CHARS) }], isError: true };
  }
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
        inputSchema: tool.inputSchema,
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      (args: Record<string, unknown>) => callTool(tool, args, ctx, log),
    );
  }
  return server;
}

/** Serves until the client closes stdin or a signal arrives. */
export async function serveStdio(cfg: TsmConfig): Promise<void> {
  // A stray console.log from any dependency would corrupt the JSON-RPC stream: send them all to stderr.
  for (const method of ['log', 'info', 'debug', 'warn'] as const) {
    console[method] = (...args: unknown[]) => console.error(...args);
  }
  const server = createServer(createContext(cfg));
  const transport = new GuardedStdioTransport();
  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    void server.close().finally(() => process.exit(0));
  };
  transport.onclose = shutdown;
  process.stdin.on('end', shutdown);
  process.stdout.on('error', shutdown); // the client went away mid-answer (EPIPE): nobody is left to answer
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  // Something went wrong on the connection (a line the transport refused and answered, a stream error).
  server.server.onerror = (err) => stderrLog(err.message);
  // Claude Code shows every stderr line of an MCP server as an error, so a healthy start writes nothing
  // there: "ready" is a log notification to the client, and stderr speaks only when something is wrong.
  const ready = `ready (vault ${cfg.vault}, index ${cfg.db})`;
  server.server.oninitialized = () => {
    void server.server.sendLoggingMessage({ level: 'info', logger: 'tsm', data: ready }).catch(() => {});
  };
  await server.connect(transport);
  if (!existsSync(cfg.db)) stderrLog(`${ready} — no index yet: run \`tsm index\` (tools report this until then)`);
}
