'use strict';
const { toolDefinitions, openaiClient, executeToolCall } = require('../lib/agent');

const SYSTEM = 'You are a travel assistant. Use the tools for live data and answer in one sentence.';
const QUESTION = 'What is the weather in Paris right now?';

module.exports = {
  name: 'otel-openai-tool-loop',
  description:
    'A travel agent asks gpt-4o-mini about the weather in Paris, the model calls get_weather, the agent runs it and ' +
    'sends the whole history back, and the model answers in text (OpenTelemetry instrumentation-openai, content as log events).',
  instrumentation: 'otel-openai',
  agentName: 'travel-assistant',
  conversationId: 'conv-otel-openai-tool-loop-0001',
  script: {
    idPrefix: 'otl',
    steps: [
      {
        expect: { model: 'gpt-4o-mini', roles: ['system', 'user'], tools: ['get_weather'], stream: false },
        reply: { content: null, tool_calls: [{ id: 'call_otl_weather_paris', name: 'get_weather', arguments: { city: 'Paris' } }] },
        usage: { prompt: 86, completion: 17 },
      },
      {
        expect: { roles: ['system', 'user', 'assistant', 'tool'], toolCallIds: ['call_otl_weather_paris'], stream: false },
        reply: { content: 'It is 18 °C in Paris with light rain, so take an umbrella.' },
        usage: { prompt: 131, completion: 16 },
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
    const first = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools, temperature: 0 });
    const asked = first.choices[0].message;
    messages.push(asked);
    for (const call of asked.tool_calls) {
      messages.push(await executeToolCall(tracer, call));
    }
    const second = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools, temperature: 0 });
    return second.choices[0].message.content;
  },
};
