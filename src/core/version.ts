// The version tsm reports (CLI `--version`, MCP server info). Replaced at build time by esbuild's `define`;
// the fallback serves tests run from sources.
declare const __TSM_VERSION__: string | undefined;
export const VERSION: string = typeof __TSM_VERSION__ === 'string' ? __TSM_VERSION__ : '0.0.0-dev';
