'use strict';
const { TOOLS } = require('../lib/agent');

const SYSTEM = 'You are a travel assistant. Use the tools for live data and answer in one sentence.';
const QUESTION = 'What is the weather in London right now?';

module.exports = {
  name: 'openinference-langchain-tool-loop',
  description:
    'A LangChain JS agent loop (ChatOpenAI with a bound get_weather tool) under the OpenInference LangChain ' +
    'instrumentation: the model calls get_weather for London, the agent invokes the LangChain tool, and the model is ' +
    'called again with the history and answers in text.',
  instrumentation: 'openinference-langchain',
  agentName: 'travel-assistant',
  conversationId: 'conv-openinference-langchain-tool-loop-0001',
  script: {
    idPrefix: 'ilc',
    steps: [
      {
        expect: { model: 'gpt-4o-mini', roles: ['system', 'user'], tools: ['get_weather'], stream: false },
        reply: { content: null, tool_calls: [{ id: 'call_ilc_weather_london', name: 'get_weather', arguments: { city: 'London' } }] },
        usage: { prompt: 86, completion: 17 },
      },
      {
        expect: { roles: ['system', 'user', 'assistant', 'tool'], toolCallIds: ['call_ilc_weather_london'], stream: false },
        reply: { content: 'It is 14 °C and overcast in London.' },
        usage: { prompt: 129, completion: 11 },
      },
    ],
  },
  async run({ env }) {
    const { ChatOpenAI } = require('@langchain/openai');
    const { tool } = require('@langchain/core/tools');
    const { SystemMessage, HumanMessage } = require('@langchain/core/messages');
    const spec = TOOLS.get_weather;
    const getWeather = tool(async args => spec.run(args), {
      name: 'get_weather',
      description: spec.description,
      schema: spec.parameters,
    });
    const model = new ChatOpenAI({
      model: 'gpt-4o-mini',
      temperature: 0,
      apiKey: 'sk-capture-not-a-real-key',
      maxRetries: 0,
      configuration: { baseURL: env.baseURL, defaultHeaders: { 'x-capture-scenario': env.scenario } },
    }).bindTools([getWeather]);
    const messages = [new SystemMessage(SYSTEM), new HumanMessage(QUESTION)];
    const asked = await model.invoke(messages);
    messages.push(asked);
    for (const call of asked.tool_calls) {
      messages.push(await getWeather.invoke(call)); // a ToolCall in, a ToolMessage out
    }
    const answer = await model.invoke(messages);
    return answer.content;
  },
};
