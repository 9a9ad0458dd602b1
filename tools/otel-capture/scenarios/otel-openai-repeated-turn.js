'use strict';
const { openaiClient } = require('../lib/agent');

const SYSTEM = 'You are a friendly assistant. Keep answers short.';
const QUESTION = 'Suggest a name for my black cat.';

module.exports = {
  name: 'otel-openai-repeated-turn',
  description:
    'A two-turn chat in which the user asks exactly the same words twice; the second call re-sends the whole history ' +
    '(user question, first answer, the same question again) and the model gives a new answer.',
  instrumentation: 'otel-openai',
  agentName: 'chat-assistant',
  conversationId: 'conv-otel-openai-repeated-turn-0001',
  script: {
    idPrefix: 'orp',
    steps: [
      {
        expect: { model: 'gpt-4o-mini', roles: ['system', 'user'], stream: false },
        reply: { content: 'How about Onyx?' },
        usage: { prompt: 31, completion: 5 },
      },
      {
        expect: { roles: ['system', 'user', 'assistant', 'user'], stream: false },
        reply: { content: 'Another idea: Salem.' },
        usage: { prompt: 47, completion: 6, cached: 24 },
      },
    ],
  },
  async run({ env }) {
    const client = openaiClient(env);
    const messages = [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: QUESTION },
    ];
    const first = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, temperature: 0.7 });
    messages.push({ role: 'assistant', content: first.choices[0].message.content });
    messages.push({ role: 'user', content: QUESTION });
    const second = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, temperature: 0.7 });
    return second.choices[0].message.content;
  },
};
