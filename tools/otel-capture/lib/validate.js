'use strict';
// Checks that a captured fixture holds what its scenario must have exported, and summarizes it.

/** An OTLP/JSON AnyValue as a plain JS value. */
function anyValue(v) {
  if (v == null) return undefined;
  if ('stringValue' in v) return v.stringValue;
  if ('boolValue' in v) return v.boolValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return v.doubleValue;
  if ('bytesValue' in v) return v.bytesValue;
  if ('arrayValue' in v) return (v.arrayValue.values || []).map(anyValue);
  if ('kvlistValue' in v) return attrs(v.kvlistValue.values);
  return undefined;
}

function attrs(list) {
  const out = {};
  for (const { key, value } of list || []) out[key] = anyValue(value);
  return out;
}

/** Every span of a fixture, flattened: { traceId, spanId, parentSpanId, name, kind, attributes, scope }. */
function spansOf(fixture) {
  const out = [];
  for (const e of fixture.exports.filter(x => x.signal === 'traces')) {
    for (const rs of e.body.resourceSpans || []) {
      for (const ss of rs.scopeSpans || []) {
        for (const s of ss.spans || []) {
          out.push({
            traceId: s.traceId,
            spanId: s.spanId,
            parentSpanId: s.parentSpanId || '',
            name: s.name,
            kind: s.kind,
            start: BigInt(s.startTimeUnixNano),
            end: BigInt(s.endTimeUnixNano),
            attributes: attrs(s.attributes),
            status: s.status || {},
            scope: ss.scope && ss.scope.name,
          });
        }
      }
    }
  }
  // By start, then end: start times have millisecond resolution, so a tool span and the next model call often tie.
  const cmp = (x, y) => (x < y ? -1 : x > y ? 1 : 0);
  return out.sort((a, b) => cmp(a.start, b.start) || cmp(a.end, b.end));
}

/** Every log record of a fixture: { traceId, spanId, eventName (event_name, else the event.name attribute), ... }. */
function logsOf(fixture) {
  const out = [];
  for (const e of fixture.exports.filter(x => x.signal === 'logs')) {
    for (const rl of e.body.resourceLogs || []) {
      for (const sl of rl.scopeLogs || []) {
        for (const r of sl.logRecords || []) {
          const attributes = attrs(r.attributes);
          out.push({
            traceId: r.traceId,
            spanId: r.spanId,
            eventNameField: r.eventName,
            eventName: r.eventName || attributes['event.name'],
            attributes,
            body: anyValue(r.body),
            scope: sl.scope && sl.scope.name,
          });
        }
      }
    }
  }
  return out;
}

/** What kind of span this is: gen_ai.operation.name, else openinference.span.kind. */
function spanOp(span) {
  return span.attributes['gen_ai.operation.name'] || span.attributes['openinference.span.kind'] || '-';
}

function count(list) {
  const m = new Map();
  for (const x of list) m.set(x, (m.get(x) || 0) + 1);
  return m;
}

/**
 * The problems with a fixture, or []. `requests` are the chat completion requests the fake model server answered,
 * in order (request i was answered with response id chatcmpl-<prefix><i+1, 3 digits>).
 */
function checkFixture(scenario, fixture, requests) {
  const problems = [];
  const spans = spansOf(fixture);
  const logs = logsOf(fixture);
  const ids = new Set(spans.map(s => s.spanId));

  // One conversation: a single root span, invoke_agent, naming the conversation; everything in its trace.
  const roots = spans.filter(s => !s.parentSpanId);
  if (roots.length !== 1) {
    problems.push(`expected one root span, found ${roots.length}: ${roots.map(s => s.name).join(', ')}`);
  } else {
    const root = roots[0];
    if (spanOp(root) !== 'invoke_agent') problems.push(`root span ${root.name} is not invoke_agent`);
    if (root.attributes['gen_ai.conversation.id'] !== scenario.conversationId) {
      problems.push(`root span's gen_ai.conversation.id is ${root.attributes['gen_ai.conversation.id']}`);
    }
    if (root.attributes['gen_ai.agent.name'] !== scenario.agentName) {
      problems.push(`root span's gen_ai.agent.name is ${root.attributes['gen_ai.agent.name']}`);
    }
    for (const s of spans) {
      if (s.traceId !== root.traceId) problems.push(`span ${s.name} is in another trace`);
      if (s.parentSpanId && !ids.has(s.parentSpanId)) problems.push(`span ${s.name}'s parent was not exported`);
    }
    for (const r of logs) {
      if (r.traceId !== root.traceId || !ids.has(r.spanId)) {
        problems.push(`log record ${r.eventName} is not joined to an exported span`);
      }
    }
  }

  // One model-call span per request the fake server answered.
  const modelSpans = spans.filter(s => spanOp(s) === 'chat' || spanOp(s) === 'LLM');
  if (modelSpans.length !== requests.length) {
    problems.push(`${modelSpans.length} model-call spans for ${requests.length} requests to the model server`);
  }

  // Tool execution: one span per tool message sent back (execute_tool or OpenInference TOOL).
  const toolMessages = requests.length ? toolOutputs(requests[requests.length - 1]) : [];
  const toolSpans = spans.filter(s => spanOp(s) === 'execute_tool' || spanOp(s) === 'TOOL');
  const expectedTools = scenario.expectedToolSpans ?? countToolRuns(requests);
  if (toolSpans.length !== expectedTools) {
    problems.push(`${toolSpans.length} tool spans, expected ${expectedTools} (last request had ${toolMessages.length} tool messages)`);
  }

  if (scenario.instrumentation === 'otel-openai') {
    problems.push(...checkGenAiEvents(spans, logs, requests));
  } else if (scenario.instrumentation === 'genai-by-hand') {
    if (logs.length) problems.push(`${logs.length} log records from a scenario that writes content on its spans`);
    for (const s of modelSpans) {
      for (const key of ['gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.usage.input_tokens',
        'gen_ai.usage.cache_read.input_tokens', 'gen_ai.usage.reasoning.output_tokens', 'gen_ai.response.time_to_first_chunk']) {
        if (s.attributes[key] === undefined) problems.push(`model-call span ${s.name} has no ${key}`);
      }
    }
  } else {
    if (logs.length) problems.push(`${logs.length} log records from an OpenInference scenario`);
    problems.push(...checkOpenInference(modelSpans, requests));
  }
  return problems;
}

/** A request's tool results, as call ids: tool messages (chat completions) or function_call_output items (Responses). */
function toolOutputs(request) {
  if (request.messages) return request.messages.filter(m => m.role === 'tool').map(m => m.tool_call_id);
  return (Array.isArray(request.input) ? request.input : []).filter(i => i.type === 'function_call_output')
    .map(i => i.call_id);
}

/** Tool runs: every tool result's call id that appears in any request, once. */
function countToolRuns(requests) {
  return new Set(requests.flatMap(toolOutputs)).size;
}

function requestIndexOf(responseId) {
  const m = /(\d{3})$/.exec(responseId || '');
  return m ? Number(m[1]) - 1 : -1;
}

/** OpenTelemetry's instrumentation: per chat span, one gen_ai.*.message event per input message and one gen_ai.choice. */
function checkGenAiEvents(spans, logs, requests) {
  const problems = [];
  if (!logs.length) return ['no log records: the GenAI events did not arrive'];
  for (const r of logs) {
    if (!String(r.eventName || '').startsWith('gen_ai.')) problems.push(`log record with event name ${r.eventName}`);
  }
  for (const span of spans.filter(s => spanOp(s) === 'chat')) {
    const index = requestIndexOf(span.attributes['gen_ai.response.id']);
    const request = requests[index];
    if (!request) {
      problems.push(`chat span ${span.name} has no known gen_ai.response.id (${span.attributes['gen_ai.response.id']})`);
      continue;
    }
    const mine = logs.filter(r => r.spanId === span.spanId);
    if (!request.messages) {
      // The Responses API: the call's input and its output each as one operation.details event.
      const details = mine.filter(r => r.eventName === 'gen_ai.client.inference.operation.details');
      if (details.length !== 2 || mine.length !== 2 || !details[0].attributes['gen_ai.input.messages']
        || !details[1].attributes['gen_ai.output.messages']) {
        problems.push(`responses span for request ${index + 1}: ${mine.length} events, expected its input and output details`);
      }
      continue;
    }
    const inputs = mine.filter(r => r.eventName !== 'gen_ai.choice');
    const choices = mine.filter(r => r.eventName === 'gen_ai.choice');
    if (inputs.length !== request.messages.length) {
      problems.push(`chat span for request ${index + 1}: ${inputs.length} message events for ${request.messages.length} messages`);
    }
    if (choices.length !== 1) problems.push(`chat span for request ${index + 1}: ${choices.length} gen_ai.choice events`);
    for (const [i, m] of request.messages.entries()) {
      const ev = inputs[i];
      if (!ev) break;
      if (ev.eventName !== `gen_ai.${m.role}.message`) {
        problems.push(`request ${index + 1} message ${i}: event ${ev.eventName} for role ${m.role}`);
      }
      if (typeof m.content === 'string' && m.content && (!ev.body || ev.body.content !== m.content)) {
        problems.push(`request ${index + 1} message ${i}: the event's body does not carry the message content`);
      }
    }
  }
  return problems;
}

/** OpenInference: each LLM span carries llm.input_messages.* for every message sent. */
function checkOpenInference(modelSpans, requests) {
  const problems = [];
  for (const [i, span] of modelSpans.entries()) {
    const request = requests[i];
    if (!request) break;
    const roles = [];
    for (let j = 0; `llm.input_messages.${j}.message.role` in span.attributes; j++) {
      roles.push(span.attributes[`llm.input_messages.${j}.message.role`]);
    }
    if (roles.length !== request.messages.length) {
      problems.push(`LLM span ${i + 1}: ${roles.length} llm.input_messages for ${request.messages.length} messages`);
    }
    if (!Object.keys(span.attributes).some(k => k.startsWith('llm.output_messages.'))) {
      problems.push(`LLM span ${i + 1}: no llm.output_messages`);
    }
  }
  return problems;
}

/** A few lines on what a fixture holds: its export requests, its span tree, its log events. */
function summarize(fixture) {
  const spans = spansOf(fixture);
  const logs = logsOf(fixture);
  const ids = new Set(spans.map(s => s.spanId));
  const lines = [`  exports: ${fixture.exports.map(e => e.signal).join(', ')}`];
  const print = (span, depth) => {
    const n = logs.filter(r => r.spanId === span.spanId).length;
    lines.push(`  ${'  '.repeat(depth)}${span.name} [${spanOp(span)}]${n ? ` (${n} log events)` : ''}`);
    for (const child of spans.filter(s => s.parentSpanId === span.spanId)) print(child, depth + 1);
  };
  for (const root of spans.filter(s => !s.parentSpanId || !ids.has(s.parentSpanId))) print(root, 0);
  if (logs.length) {
    const names = [...count(logs.map(r => r.eventName)).entries()].map(([k, v]) => `${k} x${v}`);
    lines.push(`  log events: ${names.join(', ')}`);
  }
  return lines.join('\n');
}

module.exports = { checkFixture, summarize, spansOf, logsOf, spanOp };
