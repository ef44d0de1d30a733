// tsm serve: the MCP server on stdio (docs/mcp.md). It never builds or changes the notes' index itself (its
// hook_context may start `tsm hook`'s detached background sync, a process of its own); with an
// embedding model it stores the sections' vectors (src/mcp/server.ts, ResidentModel).
import { serveStdio } from '../mcp/server.js';
import { configFrom } from './args.js';

export async function run(argv: Record<string, unknown>): Promise<void> {
  await serveStdio(configFrom(argv));
}
