'use strict';
const { TOOLS, toolDefinitions, openaiClient } = require('../lib/agent');

const SYSTEM = 'You are a travel assistant. Use the tools for live data and answer in one sentence.';
const QUESTION = 'What is the weather in Paris right now?';

/** Runs a tool call in an OpenInference TOOL span, made with openinference-core's traceTool as OpenInference users do. */
async function runTool(call) {
  const { traceTool, getToolAttributes } = require('@arizeai/openinference-core');
  const tool = TOOLS[call.function.name];
  const traced = traceTool(args => tool.run(args), {
    name: call.function.name,
    attributes: {
      ...getToolAttributes({ name: call.function.name, description: tool.description, parameters: tool.parameters }),
      'tool.id': call.id,
    },
  });
  const content = await traced(JSON.parse(call.function.arguments));
  return { role: 'tool', tool_call_id: call.id, content };
}

module.exports = {
  name: 'openinference-openai-tool-loop',
  description:
    'The travel agent of otel-openai-tool-loop under the OpenInference OpenAI instrumentation: gpt-4o-mini calls ' +
    'get_weather for Paris, the agent runs it in an OpenInference TOOL span, and the second call answers in text; the ' +
    'session id is set with openinference-core setSession.',
  instrumentation: 'openinference-openai',
  agentName: 'travel-assistant',
  conversationId: 'conv-openinference-openai-tool-loop-0001',
  script: {
    idPrefix: 'iol',
    steps: [
      {
        expect: { model: 'gpt-4o-mini', roles: ['system', 'user'], tools: ['get_weather'], stream: false },
        reply: { content: null, tool_calls: [{ id: 'call_iol_weather_paris', name: 'get_weather', arguments: { city: 'Paris' } }] },
        usage: { prompt: 86, completion: 17 },
      },
      {
        expect: { roles: ['system', 'user', 'assistant', 'tool'], toolCallIds: ['call_iol_weather_paris'], stream: false },
        reply: { content: 'It is 18 °C in Paris with light rain, so take an umbrella.' },
        usage: { prompt: 131, completion: 16 },
      },
    ],
  },
  async run({ env }) {
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
      messages.push(await runTool(call));
    }
    const second = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools, temperature: 0 });
    return second.choices[0].message.content;
  },
};
