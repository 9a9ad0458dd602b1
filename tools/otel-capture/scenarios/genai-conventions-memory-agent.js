'use strict';
const { toolDefinitions, openaiClient, executeToolCall } = require('../lib/agent');
const { streamedChat, memoryOperation } = require('../lib/genai-by-hand');

const STORE = 'team-lessons';
const QUESTION = 'Consumer lag is climbing again after the 2.4 deploy. What fixed it last time?';
const LESSON = { id: 'lesson-7', content: 'Lag after a deploy: lower max.poll.records before scaling consumers.', score: 0.82 };
const ANSWER = 'Last time lowering max.poll.records to 200 brought the lag back under 1k; try that before adding consumers.';

module.exports = {
  name: 'genai-conventions-memory-agent',
  description:
    'An on-call agent written against today\'s GenAI conventions (its framework emits the spans itself, content as ' +
    'attributes): it searches its memory store, streams two o4-mini calls (cache reads and reasoning tokens in ' +
    'usage, time to first chunk, system instructions and tool definitions) around one search_notes call, and ' +
    'stores what it learned as a new memory.',
  instrumentation: 'genai-by-hand',
  agentName: 'oncall-assistant',
  conversationId: 'conv-genai-conventions-memory-agent-0001',
  script: {
    idPrefix: 'gcm',
    steps: [
      {
        expect: { model: 'o4-mini', roles: ['system', 'user'], tools: ['search_notes'], stream: true },
        reply: { content: null, tool_calls: [{ id: 'call_gcm_search', name: 'search_notes', arguments: { query: 'consumer lag deploy fix' } }] },
        usage: { prompt: 320, completion: 24, cached: 256, reasoning: 12 },
      },
      {
        expect: { roles: ['system', 'user', 'assistant', 'tool'], toolCallIds: ['call_gcm_search'], stream: true },
        reply: { content: ANSWER },
        usage: { prompt: 402, completion: 58, cached: 320, reasoning: 30 },
      },
    ],
  },
  async run({ tracer, env }) {
    const client = openaiClient(env);
    const remembered = await memoryOperation(tracer, 'search_memory', { storeId: STORE, query: QUESTION },
      async () => [LESSON]);
    const tools = toolDefinitions(['search_notes']);
    const messages = [
      { role: 'system', content: `You are the on-call assistant. What you remember: ${remembered.map(r => r.content).join(' ')}` },
      { role: 'user', content: QUESTION },
    ];
    const first = await streamedChat(tracer, client, { model: 'o4-mini', messages, tools });
    messages.push(first);
    for (const call of first.tool_calls) {
      messages.push(await executeToolCall(tracer, call));
    }
    const second = await streamedChat(tracer, client, { model: 'o4-mini', messages, tools });
    await memoryOperation(tracer, 'create_memory', { storeId: STORE, recordId: 'lesson-8' },
      async () => [{ id: 'lesson-8', content: second.content }]);
    return second.content;
  },
};
