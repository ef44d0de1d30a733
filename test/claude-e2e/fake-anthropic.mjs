// A small stand-in for the Anthropic Messages API on 127.0.0.1, for driving the real Claude Code CLI in
// tests (ANTHROPIC_BASE_URL=http://127.0.0.1:PORT, ANTHROPIC_API_KEY=dummy). It records every request
// (method, path, parsed JSON body, and `at`: performance.now() when its body had arrived) and answers each POST /v1/messages with one short text message: as
// server-sent events when the body asks for `stream: true` (what the CLI's main loop does), as plain JSON
// otherwise (title and topic helpers). count_tokens gets a token count; anything else gets 404, so an
// endpoint the CLI starts to need shows up as a failed test with its path in the log, not as a hang.
import { createServer } from 'node:http';

export const REPLY_TEXT = 'OK from the fake model.';

/** Starts the fake; resolves to { url, requests, close() }. `requests` fills as the CLI calls it. */
export function startFakeAnthropic({ reply = REPLY_TEXT } = {}) {
  const requests = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      let body = null;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        body = raw;
      }
      const path = (req.url ?? '').split('?')[0];
      requests.push({ method: req.method, path, body, at: performance.now() });
      if (req.method === 'POST' && path === '/v1/messages/count_tokens') return json(res, 200, { input_tokens: 100 });
      if (req.method === 'POST' && path === '/v1/messages') {
        const model = (body && body.model) || 'claude-sonnet-4-5';
        return body && body.stream ? stream(res, model, reply) : json(res, 200, message(model, reply));
      }
      json(res, 404, { type: 'error', error: { type: 'not_found_error', message: `fake API: no ${req.method} ${path}` } });
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({
        url: `http://127.0.0.1:${port}`,
        requests,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

let counter = 0;

function message(model, text) {
  return {
    id: `msg_fake_${++counter}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  };
}

function json(res, status, value) {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'request-id': `req_fake_${counter}` });
  res.end(text);
}

/** The event sequence the Messages API streams for a one-block text answer. */
function stream(res, model, text) {
  const full = message(model, text);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_fake_${counter}` });
  const send = (event, data) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  send('message_start', { type: 'message_start', message: { ...full, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } });
  send('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
  send('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } });
  send('content_block_stop', { type: 'content_block_stop', index: 0 });
  send('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } });
  send('message_stop', { type: 'message_stop' });
  res.end();
}

/** Every text the model was sent in a request: system blocks and message contents, flattened. */
export function textsOf(body) {
  if (!body || typeof body !== 'object') return [];
  const out = [];
  const walk = (v) => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      if (typeof v.text === 'string') out.push(v.text);
      if (v.content !== undefined) walk(v.content);
    }
  };
  walk(body.system);
  walk(body.messages);
  return out;
}
