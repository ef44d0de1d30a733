// tsm serve: the MCP server on stdio (docs/mcp.md). Read-only; it never builds or changes the index.
import { serveStdio } from '../mcp/server.js';
import { configFrom } from './args.js';

export async function run(argv: Record<string, unknown>): Promise<void> {
  await serveStdio(configFrom(argv));
}
