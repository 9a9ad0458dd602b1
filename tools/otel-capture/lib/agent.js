'use strict';
// What the scenarios' agents share: their tools (deterministic, no network), the OpenAI client pointed at the fake
// model server, and the spans no JS instrumentation makes (invoke_agent, execute_tool), made with the OTel API after
// the GenAI semantic conventions.

const { SpanKind, SpanStatusCode } = require('@opentelemetry/api');

const WEATHER = {
  Paris: { temperature_c: 18, conditions: 'light rain' },
  London: { temperature_c: 14, conditions: 'overcast' },
  Lisbon: { temperature_c: 24, conditions: 'sunny' },
  Oslo: { temperature_c: 3, conditions: 'snow showers' },
};

/** The tools, by name: each has an OpenAI function definition and a deterministic implementation. */
const TOOLS = {
  get_weather: {
    description: 'Current weather for a city.',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string', description: 'City name, e.g. Paris' } },
      required: ['city'],
      additionalProperties: false,
    },
    run: ({ city }) => {
      const w = WEATHER[city];
      if (!w) throw new Error(`no weather for ${city}`);
      return JSON.stringify({ city, ...w });
    },
  },
  search_notes: {
    description: 'Search the team notes for a query; returns the matching passages.',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
      additionalProperties: false,
    },
    run: ({ query }) =>
      JSON.stringify({
        query,
        passages: [
          'Kafka consumer lag rose to 120k messages after the 2.3 deploy.',
          'Lag fell back under 1k once max.poll.records was lowered to 200.',
        ],
      }),
  },
  count_words: {
    description: 'Count the words in a text.',
    parameters: {
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
      additionalProperties: false,
    },
    run: ({ text }) => JSON.stringify({ words: text.trim().split(/\s+/).filter(Boolean).length }),
  },
};

/** OpenAI `tools` for the named tools. */
function toolDefinitions(names) {
  return names.map(name => ({
    type: 'function',
    function: { name, description: TOOLS[name].description, parameters: TOOLS[name].parameters, strict: true },
  }));
}

/** An OpenAI client (the real `openai` package) on the fake model server. Require only after telemetry is set up. */
function openaiClient(env) {
  const { OpenAI } = require('openai');
  return new OpenAI({
    baseURL: env.baseURL,
    apiKey: 'sk-capture-not-a-real-key',
    maxRetries: 0,
    defaultHeaders: { 'x-capture-scenario': env.scenario },
  });
}

/**
 * Runs `fn(span)` inside a new span, the active one while it runs; a failure is recorded on the span (exception and
 * error status) and thrown on.
 */
async function inSpan(tracer, name, options, fn) {
  return tracer.startActiveSpan(name, options, async span => {
    try {
      return await fn(span);
    } catch (err) {
      span.recordException(err);
      span.setStatus({ code: SpanStatusCode.ERROR, message: err.message });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** Runs `fn` inside an `invoke_agent` span (GenAI agent conventions), the active span while it runs. */
async function inAgentSpan(tracer, { agentName, agentDescription, conversationId }, fn) {
  const attributes = {
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.provider.name': 'openai',
    'gen_ai.agent.name': agentName,
    'gen_ai.conversation.id': conversationId,
  };
  if (agentDescription) attributes['gen_ai.agent.description'] = agentDescription;
  return inSpan(tracer, `invoke_agent ${agentName}`, { kind: SpanKind.INTERNAL, attributes }, fn);
}

/**
 * Runs one tool call from a model's answer inside an `execute_tool` span (GenAI conventions) and returns the tool
 * message to send back: { role: 'tool', tool_call_id, content }.
 */
async function executeToolCall(tracer, toolCall) {
  const name = toolCall.function.name;
  const tool = TOOLS[name];
  const attributes = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': name,
    'gen_ai.tool.type': 'function',
    'gen_ai.tool.call.id': toolCall.id,
    'gen_ai.tool.call.arguments': toolCall.function.arguments,
  };
  if (tool) attributes['gen_ai.tool.description'] = tool.description;
  return inSpan(tracer, `execute_tool ${name}`, { kind: SpanKind.INTERNAL, attributes }, async span => {
    if (!tool) throw new Error(`unknown tool ${name}`);
    const result = tool.run(JSON.parse(toolCall.function.arguments));
    span.setAttribute('gen_ai.tool.call.result', result);
    return { role: 'tool', tool_call_id: toolCall.id, content: result };
  });
}

/**
 * Gathers a streamed chat completion (openai Stream of chunks) into the assistant message it makes, with its finish
 * reason, the last chunk's model and id, its usage (under stream_options.include_usage) and when its first chunk came
 * (performance.now()).
 */
async function collectStream(stream) {
  const message = { role: 'assistant', content: null };
  const calls = [];
  const out = { message, finish: null, model: null, id: null, usage: null, firstChunkAt: null };
  for await (const chunk of stream) {
    if (out.firstChunkAt === null) out.firstChunkAt = performance.now();
    if (chunk.usage) out.usage = chunk.usage;
    out.model = chunk.model || out.model;
    out.id = chunk.id || out.id;
    const choice = chunk.choices[0];
    if (!choice) continue;
    const delta = choice.delta || {};
    if (delta.content) message.content = (message.content || '') + delta.content;
    for (const part of delta.tool_calls || []) {
      const call = (calls[part.index] ||= { id: '', type: 'function', function: { name: '', arguments: '' } });
      if (part.id) call.id = part.id;
      if (part.function && part.function.name) call.function.name += part.function.name;
      if (part.function && part.function.arguments) call.function.arguments += part.function.arguments;
    }
    if (choice.finish_reason) out.finish = choice.finish_reason;
  }
  if (calls.length) message.tool_calls = calls;
  return out;
}

module.exports = { TOOLS, toolDefinitions, openaiClient, inSpan, inAgentSpan, executeToolCall, collectStream };
