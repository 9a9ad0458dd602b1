'use strict';
const { toolDefinitions, openaiClient, executeToolCall } = require('../lib/agent');

const QUESTION = 'Is it snowing in Oslo?';

module.exports = {
  name: 'otel-openai-trimmed-history',
  description:
    'A tool loop whose agent trims its history: the model calls get_weather for Oslo, and the second call sends only ' +
    'the user question and the tool result, leaving out the assistant message that made the tool call.',
  instrumentation: 'otel-openai',
  agentName: 'weather-bot',
  conversationId: 'conv-otel-openai-trimmed-history-0001',
  script: {
    idPrefix: 'oth',
    steps: [
      {
        expect: { model: 'gpt-4o-mini', roles: ['user'], tools: ['get_weather'], stream: false },
        reply: { content: null, tool_calls: [{ id: 'call_oth_weather_oslo', name: 'get_weather', arguments: { city: 'Oslo' } }] },
        usage: { prompt: 58, completion: 16 },
      },
      {
        expect: { roles: ['user', 'tool'], toolCallIds: ['call_oth_weather_oslo'], stream: false },
        reply: { content: 'Yes, there are snow showers in Oslo and it is 3 °C.' },
        usage: { prompt: 79, completion: 15 },
      },
    ],
  },
  async run({ tracer, env }) {
    const client = openaiClient(env);
    const tools = toolDefinitions(['get_weather']);
    const user = { role: 'user', content: QUESTION };
    const first = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [user], tools, temperature: 0 });
    const results = [];
    for (const call of first.choices[0].message.tool_calls) {
      results.push(await executeToolCall(tracer, call));
    }
    // The history kept is trimmed of the assistant's tool-calling message.
    const second = await client.chat.completions.create({
      model: 'gpt-4o-mini', messages: [user, ...results], tools, temperature: 0,
    });
    return second.choices[0].message.content;
  },
};
