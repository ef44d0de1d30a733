// tsm serve: the MCP server on stdio (docs/mcp.md). It never builds or changes the notes' index; with an
// embedding model it stores the sections' vectors (src/mcp/server.ts, ResidentModel).
import { serveStdio } from '../mcp/server.js';
import { configFrom } from './args.js';

export async function run(argv: Record<string, unknown>): Promise<void> {
  await serveStdio(configFrom(argv));
}
