// An MCP SDK client connected over stdio to the BUILT `tsm serve` of a vault, for end-to-end tests of what a
// real client receives. The environment is the tests' clean one (cleanEnv), without its unset entries,
// which the SDK's transport does not take.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cleanEnv, TSM } from './cli.js';

export async function servedClient(vault: string, name: string): Promise<Client> {
  const env = Object.fromEntries(Object.entries(cleanEnv()).filter((e): e is [string, string] => e[1] !== undefined));
  const transport = new StdioClientTransport({ command: process.execPath, args: [TSM, 'serve', '--vault', vault], env, cwd: vault, stderr: 'pipe' });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return client;
}
