'use strict';
// A fake OpenAI-compatible model server: POST /v1/chat/completions answers from the current scenario's script of
// canned responses, in order, as JSON or (when the request says stream: true) as server-sent events; POST
// /v1/responses (the Responses API) answers from the same script as a response object (not streamed).
// Ids, timestamps and usage numbers come from the script, so every run answers the same.

const http = require('node:http');

const RESPONSE_MODELS = {
  'gpt-4o-mini': 'gpt-4o-mini-2024-07-18',
  'o4-mini': 'o4-mini-2025-04-16',
};
const CREATED_BASE = 1767225600; // 2026-01-01T00:00:00Z
const SYSTEM_FINGERPRINT = 'fp_capture01';

class FakeOpenAI {
  constructor() {
    this.scenario = null; // { name, steps, idPrefix, next, requests }
    this.errors = [];
    this.server = http.createServer((req, res) => this._handle(req, res));
  }

  listen() {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve(this.server.address().port));
    });
  }

  close() {
    return new Promise(resolve => this.server.close(() => resolve()));
  }

  /** Makes `script` the answers for the scenario `name`, first step first. */
  load(name, script) {
    this.scenario = { name, steps: script.steps, idPrefix: script.idPrefix, next: 0, requests: [] };
    this.errors = [];
  }

  /** What the scenario left unsaid or got wrong; empty when every step was asked for exactly once, as expected. */
  problems() {
    const s = this.scenario;
    const out = [...this.errors];
    if (s && s.next !== s.steps.length) {
      out.push(`fake model server: ${s.next} of ${s.steps.length} scripted responses were asked for`);
    }
    return out;
  }

  _fail(res, status, message) {
    this.errors.push(`fake model server: ${message}`);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code: null } }));
  }

  _handle(req, res) {
    const chunks = [];
    req.on('data', c => chunks.push(c));
    req.on('end', () => {
      try {
        this._answer(req, Buffer.concat(chunks).toString('utf8'), res);
      } catch (err) {
        this._fail(res, 500, `unexpected error: ${err.stack || err}`);
      }
    });
  }

  _answer(req, text, res) {
    const path = req.url.split('?')[0];
    if (req.method !== 'POST' || (path !== '/v1/chat/completions' && path !== '/v1/responses')) {
      return this._fail(res, 404, `unexpected request ${req.method} ${req.url}`);
    }
    const s = this.scenario;
    const asked = req.headers['x-capture-scenario'];
    if (!s || asked !== s.name) {
      return this._fail(res, 409, `request for scenario ${asked}, but ${s && s.name} is running`);
    }
    let body;
    try {
      body = JSON.parse(text);
    } catch (err) {
      return this._fail(res, 400, `request body is not JSON: ${err.message}`);
    }
    s.requests.push(body);
    if (s.next >= s.steps.length) {
      return this._fail(res, 400, `request ${s.next + 1} has no scripted response (${s.steps.length} scripted)`);
    }
    const index = s.next++;
    const step = s.steps[index];
    const mismatch = path === '/v1/responses' ? checkResponsesExpectations(step.expect || {}, body)
      : checkExpectations(step.expect || {}, body);
    if (mismatch) {
      return this._fail(res, 400, `request ${index + 1} of ${s.name}: ${mismatch}`);
    }
    if (path === '/v1/responses') {
      const out = responseObject(s.idPrefix, index, step, body);
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_${out.id}` });
      res.end(JSON.stringify(out));
      return;
    }
    const base = {
      id: `chatcmpl-${s.idPrefix}${String(index + 1).padStart(3, '0')}`,
      created: CREATED_BASE + index,
      model: step.model || RESPONSE_MODELS[body.model] || body.model,
      system_fingerprint: SYSTEM_FINGERPRINT,
    };
    const usage = usageOf(step.usage);
    if (body.stream === true) {
      const includeUsage = Boolean(body.stream_options && body.stream_options.include_usage);
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
      for (const chunk of streamChunks(base, step.reply, usage, includeUsage)) {
        res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      }
      res.end('data: [DONE]\n\n');
      return;
    }
    const message = { role: 'assistant', content: step.reply.content ?? null, refusal: null, annotations: [] };
    if (step.reply.tool_calls) {
      message.tool_calls = step.reply.tool_calls.map(tc => ({
        id: tc.id,
        type: 'function',
        function: { name: tc.name, arguments: JSON.stringify(tc.arguments) },
      }));
    }
    const out = {
      id: base.id,
      object: 'chat.completion',
      created: base.created,
      model: base.model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(step.reply) }],
      usage,
      service_tier: 'default',
      system_fingerprint: base.system_fingerprint,
    };
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_${base.id}` });
    res.end(JSON.stringify(out));
  }
}

function finishReason(reply) {
  return reply.tool_calls ? 'tool_calls' : 'stop';
}

function usageOf(u) {
  return {
    prompt_tokens: u.prompt,
    completion_tokens: u.completion,
    total_tokens: u.prompt + u.completion,
    prompt_tokens_details: { cached_tokens: u.cached || 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: u.reasoning || 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** The chunks OpenAI streams for one reply: role, content word by word or tool calls piece by piece, finish, usage. */
function* streamChunks(base, reply, usage, includeUsage) {
  const chunk = (delta, finish = null) => {
    const c = {
      id: base.id,
      object: 'chat.completion.chunk',
      created: base.created,
      model: base.model,
      service_tier: 'default',
      system_fingerprint: base.system_fingerprint,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    };
    if (includeUsage) c.usage = null;
    return c;
  };
  if (reply.tool_calls) {
    for (const [i, tc] of reply.tool_calls.entries()) {
      const args = JSON.stringify(tc.arguments);
      const first = { index: i, id: tc.id, type: 'function', function: { name: tc.name, arguments: '' } };
      yield chunk(i === 0 ? { role: 'assistant', content: null, tool_calls: [first] } : { tool_calls: [first] });
      for (const piece of args.match(/.{1,8}/gs) || []) {
        yield chunk({ tool_calls: [{ index: i, function: { arguments: piece } }] });
      }
    }
  } else {
    yield chunk({ role: 'assistant', content: '', refusal: null });
    for (const piece of reply.content.match(/\S+\s*|\s+/g) || []) {
      yield chunk({ content: piece });
    }
  }
  yield chunk({}, finishReason(reply));
  if (includeUsage) {
    yield {
      id: base.id,
      object: 'chat.completion.chunk',
      created: base.created,
      model: base.model,
      service_tier: 'default',
      system_fingerprint: base.system_fingerprint,
      choices: [],
      usage,
    };
  }
}

/**
 * A Responses API response object for a scripted step: its reasoning summary (reply.reasoning), function calls
 * (reply.tool_calls: an fc_ item id and the call_id the caller answers with) or text message, and usage.
 */
function responseObject(prefix, index, step, body) {
  const n = String(index + 1).padStart(3, '0');
  const output = [];
  if (step.reply.reasoning) {
    output.push({ id: `rs_${prefix}${n}`, type: 'reasoning', summary: [{ type: 'summary_text', text: step.reply.reasoning }] });
  }
  for (const [i, tc] of (step.reply.tool_calls || []).entries()) {
    output.push({ id: `fc_${prefix}${n}_${i}`, type: 'function_call', status: 'completed', call_id: tc.id, name: tc.name,
      arguments: JSON.stringify(tc.arguments) });
  }
  if (step.reply.content) {
    output.push({ id: `msg_${prefix}${n}`, type: 'message', status: 'completed', role: 'assistant',
      content: [{ type: 'output_text', text: step.reply.content, annotations: [] }] });
  }
  const u = step.usage;
  return {
    id: `resp_${prefix}${n}`,
    object: 'response',
    created_at: CREATED_BASE + index,
    status: 'completed',
    model: step.model || RESPONSE_MODELS[body.model] || body.model,
    instructions: body.instructions ?? null,
    output,
    parallel_tool_calls: true,
    tools: body.tools || [],
    usage: {
      input_tokens: u.prompt,
      input_tokens_details: { cached_tokens: u.cached || 0 },
      output_tokens: u.completion,
      output_tokens_details: { reasoning_tokens: u.reasoning || 0 },
      total_tokens: u.prompt + u.completion,
    },
  };
}

/** Checks a Responses API request: model, the input items (a message's role, else the item's type), tool names. */
function checkResponsesExpectations(expect, body) {
  if (expect.model && body.model !== expect.model) {
    return `model ${body.model}, expected ${expect.model}`;
  }
  if (expect.items) {
    const items = (typeof body.input === 'string' ? [{ role: 'user' }] : body.input || [])
      .map(item => item.type && item.type !== 'message' ? item.type : item.role);
    if (JSON.stringify(items) !== JSON.stringify(expect.items)) {
      return `input items ${JSON.stringify(items)}, expected ${JSON.stringify(expect.items)}`;
    }
  }
  if (expect.tools !== undefined) {
    const names = (body.tools || []).map(t => t.name);
    if (JSON.stringify(names) !== JSON.stringify(expect.tools)) {
      return `tools ${JSON.stringify(names)}, expected ${JSON.stringify(expect.tools)}`;
    }
  }
  return null;
}

/** Checks a request against what the script expects of it; returns what differs, or null. */
function checkExpectations(expect, body) {
  if (expect.model && body.model !== expect.model) {
    return `model ${body.model}, expected ${expect.model}`;
  }
  if (expect.roles) {
    const roles = (body.messages || []).map(m => m.role);
    if (JSON.stringify(roles) !== JSON.stringify(expect.roles)) {
      return `message roles ${JSON.stringify(roles)}, expected ${JSON.stringify(expect.roles)}`;
    }
  }
  if (expect.stream !== undefined && Boolean(body.stream) !== expect.stream) {
    return `stream ${Boolean(body.stream)}, expected ${expect.stream}`;
  }
  if (expect.tools !== undefined) {
    const names = (body.tools || []).map(t => t.function && t.function.name);
    if (JSON.stringify(names) !== JSON.stringify(expect.tools)) {
      return `tools ${JSON.stringify(names)}, expected ${JSON.stringify(expect.tools)}`;
    }
  }
  if (expect.toolCallIds) {
    const ids = (body.messages || []).filter(m => m.role === 'tool').map(m => m.tool_call_id);
    if (JSON.stringify(ids) !== JSON.stringify(expect.toolCallIds)) {
      return `tool message ids ${JSON.stringify(ids)}, expected ${JSON.stringify(expect.toolCallIds)}`;
    }
  }
  return null;
}

module.exports = { FakeOpenAI };
