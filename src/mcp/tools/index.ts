// The ten tools, in the order a client lists them: find, read, navigate, recall; last, the one Claude Code's
// prompt hook calls (an mcp_tool hook), not the model.
import type { Tool } from '../tool.js';
import { fileHistoryTool } from './file-history.js';
import { getSectionsTool } from './get-sections.js';
import { hookContextTool } from './hook-context.js';
import { readNoteTool } from './read-note.js';
import { recentContextTool } from './recent-context.js';
import { relatedTool } from './related.js';
import { retrieveMemoryTool } from './retrieve-memory.js';
import { searchTool } from './search.js';
import { sessionTraceTool } from './session-trace.js';
import { timelineTool } from './timeline.js';

export const TOOLS: readonly Tool[] = [
  searchTool,
  getSectionsTool,
  readNoteTool,
  timelineTool,
  recentContextTool,
  sessionTraceTool,
  fileHistoryTool,
  relatedTool,
  retrieveMemoryTool,
  hookContextTool,
];
