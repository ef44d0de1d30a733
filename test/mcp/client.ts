// A real MCP client connected to a tool server, in process (InMemoryTransport) or over stdio.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';

export interface CallOutcome {
  isError: boolean;
  text: string;
  /** The text parsed as JSON (undefined when it is not JSON). */
  json: any;
  /** A second text item beside the result (get_sections' ids not found), parsed as JSON; undefined when there is none. */
  notice?: any;
}

export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallOutcome> {
  const res = await client.callTool({ name, arguments: args });
  const content = res.content as { type: string; text: string }[];
  if (content.length < 1 || content.length > 2 || content.some((c) => c.type !== 'text')) {
    throw new Error(`expected one text item (or two: a result and a notice), got ${JSON.stringify(content)}`);
  }
  const text = content[0].text;
  const notice = content.length === 2 ? JSON.parse(content[1].text) : undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { isError: res.isError === true, text, json, ...(notice === undefined ? {} : { notice }) };
}

/** Calls a tool that must succeed and returns its JSON. */
export async function ok(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const r = await call(client, name, args);
  if (r.isError) throw new Error(`${name} failed: ${r.text}`);
  return r.json ?? r.text;
}

/** Calls a tool that must fail and returns its message. */
export async function fails(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const r = await call(client, name, args);
  if (!r.isError) throw new Error(`${name} unexpectedly succeeded: ${r.text.slice(0, 300)}`);
  return r.text;
}
