'use strict';
// Spans a framework writes itself after the GenAI conventions Hindsight pins (semantic-conventions-genai v0.1.0,
// docs/adr/0026): no JS instrumentation emits these yet, so this is what an agent framework that follows today's
// conventions exports. Content goes on the span as attributes (gen_ai.input.messages, gen_ai.output.messages,
// gen_ai.system_instructions, gen_ai.tool.definitions), not as log records.

const { SpanKind } = require('@opentelemetry/api');
const { collectStream, inSpan } = require('./agent');

/** An OpenAI chat message as a GenAI structured message; null for a system message (those are instructions). */
function structured(message) {
  switch (message.role) {
    case 'system':
      return null;
    case 'tool':
      return { role: 'tool', parts: [{ type: 'tool_call_response', id: message.tool_call_id, response: message.content }] };
    default: {
      const parts = [];
      if (message.content) parts.push({ type: 'text', content: message.content });
      for (const call of message.tool_calls || []) {
        parts.push({ type: 'tool_call', id: call.id, name: call.function.name, arguments: JSON.parse(call.function.arguments) });
      }
      return { role: message.role, parts };
    }
  }
}

/**
 * One streamed chat completion inside a `chat <model>` span with today's attributes: provider, request, response,
 * usage with cache reads and reasoning tokens, time to first chunk, and the content. Returns the assistant message.
 */
async function streamedChat(tracer, client, params) {
  const attributes = {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': 'openai',
    'gen_ai.request.model': params.model,
    'gen_ai.request.stream': true,
    'gen_ai.system_instructions': JSON.stringify(params.messages.filter(m => m.role === 'system')
      .map(m => ({ type: 'text', content: m.content }))),
    'gen_ai.tool.definitions': JSON.stringify((params.tools || []).map(t => ({
      type: 'function', name: t.function.name, description: t.function.description, parameters: t.function.parameters,
    }))),
    'gen_ai.input.messages': JSON.stringify(params.messages.map(structured).filter(Boolean)),
  };
  return inSpan(tracer, `chat ${params.model}`, { kind: SpanKind.CLIENT, attributes }, async span => {
    const started = performance.now();
    const stream = await client.chat.completions.create({ ...params, stream: true, stream_options: { include_usage: true } });
    const { message, finish, model, id, usage, firstChunkAt } = await collectStream(stream);
    span.setAttribute('gen_ai.response.model', model);
    span.setAttribute('gen_ai.response.id', id);
    span.setAttribute('gen_ai.response.time_to_first_chunk', (firstChunkAt - started) / 1000);
    span.setAttribute('gen_ai.response.finish_reasons', [finish]);
    if (usage) {
      span.setAttribute('gen_ai.usage.input_tokens', usage.prompt_tokens);
      span.setAttribute('gen_ai.usage.output_tokens', usage.completion_tokens);
      span.setAttribute('gen_ai.usage.cache_read.input_tokens', usage.prompt_tokens_details.cached_tokens);
      span.setAttribute('gen_ai.usage.reasoning.output_tokens', usage.completion_tokens_details.reasoning_tokens);
    }
    span.setAttribute('gen_ai.output.messages', JSON.stringify([{ ...structured(message), finish_reason: finish }]));
    return message;
  });
}

/** A memory operation (`search_memory`, `create_memory`, ...) on a store, as its own span; `fn` gives the records. */
async function memoryOperation(tracer, operation, { storeId, query, recordId }, fn) {
  const attributes = { 'gen_ai.operation.name': operation, 'gen_ai.memory.store.id': storeId };
  if (query) attributes['gen_ai.memory.query.text'] = query;
  if (recordId) attributes['gen_ai.memory.record.id'] = recordId;
  return inSpan(tracer, `${operation} ${storeId}`, { kind: SpanKind.CLIENT, attributes }, async span => {
    const records = await fn();
    span.setAttribute('gen_ai.memory.records', JSON.stringify(records));
    span.setAttribute('gen_ai.memory.record.count', records.length);
    return records;
  });
}

module.exports = { streamedChat, memoryOperation };
