'use strict';
const { toolDefinitions, openaiClient, executeToolCall, collectStream } = require('../lib/agent');

const SYSTEM = 'You are a travel assistant. Use the tools for live data and answer in one sentence.';
const QUESTION = 'Should I pack sunglasses for Lisbon today?';

module.exports = {
  name: 'otel-openai-streamed',
  description:
    'A travel agent streams both of its gpt-4o-mini calls (stream: true with stream_options.include_usage): the first ' +
    'streams a get_weather call for Lisbon, the agent runs it, and the second streams the text answer word by word.',
  instrumentation: 'otel-openai',
  agentName: 'travel-assistant',
  conversationId: 'conv-otel-openai-streamed-0001',
  script: {
    idPrefix: 'ost',
    steps: [
      {
        expect: { model: 'gpt-4o-mini', roles: ['system', 'user'], tools: ['get_weather'], stream: true },
        reply: { content: null, tool_calls: [{ id: 'call_ost_weather_lisbon', name: 'get_weather', arguments: { city: 'Lisbon' } }] },
        usage: { prompt: 84, completion: 17 },
      },
      {
        expect: { roles: ['system', 'user', 'assistant', 'tool'], toolCallIds: ['call_ost_weather_lisbon'], stream: true },
        reply: { content: 'Yes: it is sunny and 24 °C in Lisbon, so sunglasses are a good idea.' },
        usage: { prompt: 129, completion: 19 },
      },
    ],
  },
  async run({ tracer, env }) {
    const client = openaiClient(env);
    const tools = toolDefinitions(['get_weather']);
    const messages = [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: QUESTION },
    ];
    const params = { model: 'gpt-4o-mini', tools, temperature: 0, stream: true, stream_options: { include_usage: true } };
    const first = await collectStream(await client.chat.completions.create({ ...params, messages }));
    messages.push(first.message);
    for (const call of first.message.tool_calls) {
      messages.push(await executeToolCall(tracer, call));
    }
    const second = await collectStream(await client.chat.completions.create({ ...params, messages }));
    return second.message.content;
  },
};
