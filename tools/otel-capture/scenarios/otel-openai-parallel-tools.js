'use strict';
const { toolDefinitions, openaiClient, executeToolCall } = require('../lib/agent');

const SYSTEM = 'You are a travel assistant. Use the tools for live data; call them in parallel when you can.';
const QUESTION = 'Compare the weather in Paris and London right now.';

module.exports = {
  name: 'otel-openai-parallel-tools',
  description:
    'A travel agent asks gpt-4o-mini to compare Paris and London, the model answers with two get_weather calls in one ' +
    'message (parallel tool calls), the agent runs both and sends both results back, and the model answers in text.',
  instrumentation: 'otel-openai',
  agentName: 'travel-assistant',
  conversationId: 'conv-otel-openai-parallel-tools-0001',
  script: {
    idPrefix: 'opt',
    steps: [
      {
        expect: { model: 'gpt-4o-mini', roles: ['system', 'user'], tools: ['get_weather'], stream: false },
        reply: {
          content: null,
          tool_calls: [
            { id: 'call_opt_weather_paris', name: 'get_weather', arguments: { city: 'Paris' } },
            { id: 'call_opt_weather_london', name: 'get_weather', arguments: { city: 'London' } },
          ],
        },
        usage: { prompt: 92, completion: 46 },
      },
      {
        expect: {
          roles: ['system', 'user', 'assistant', 'tool', 'tool'],
          toolCallIds: ['call_opt_weather_paris', 'call_opt_weather_london'],
        },
        reply: { content: 'Paris is warmer at 18 °C with light rain; London is 14 °C and overcast.' },
        usage: { prompt: 171, completion: 22 },
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
    const first = await client.chat.completions.create({
      model: 'gpt-4o-mini', messages, tools, parallel_tool_calls: true, temperature: 0,
    });
    const asked = first.choices[0].message;
    messages.push(asked);
    for (const call of asked.tool_calls) {
      messages.push(await executeToolCall(tracer, call));
    }
    const second = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools, temperature: 0 });
    return second.choices[0].message.content;
  },
};
