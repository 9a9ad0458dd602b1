'use strict';
const { TOOLS, openaiClient, executeToolCall } = require('../lib/agent');

const INSTRUCTIONS = 'You are a travel assistant. Use the tools for live data and answer in one sentence.';
const QUESTION = 'Do I need a coat in Oslo this evening?';

module.exports = {
  name: 'otel-openai-responses-tool-loop',
  description:
    'A travel agent on the Responses API (o4-mini): the first response reasons and calls get_weather for Oslo, the ' +
    'agent runs it and sends the response\'s items back with the function output, and the second response answers. ' +
    'OpenTelemetry\'s instrumentation writes each call\'s input and output as gen_ai.client.inference.operation.details ' +
    'log records.',
  instrumentation: 'otel-openai',
  agentName: 'travel-assistant',
  conversationId: 'conv-otel-openai-responses-tool-loop-0001',
  script: {
    idPrefix: 'orr',
    steps: [
      {
        expect: { model: 'o4-mini', items: ['user'], tools: ['get_weather'] },
        reply: {
          reasoning: 'The user asks about the evening in Oslo: I need the current weather there.',
          tool_calls: [{ id: 'call_orr_weather_oslo', name: 'get_weather', arguments: { city: 'Oslo' } }],
        },
        usage: { prompt: 91, completion: 40, cached: 0, reasoning: 24 },
      },
      {
        expect: { model: 'o4-mini', items: ['user', 'reasoning', 'function_call', 'function_call_output'], tools: ['get_weather'] },
        reply: { content: 'Yes: it is 3 °C with snow showers in Oslo, so take a warm coat.' },
        usage: { prompt: 168, completion: 22, cached: 64, reasoning: 0 },
      },
    ],
  },
  async run({ tracer, env }) {
    const client = openaiClient(env);
    const tools = [{
      type: 'function', name: 'get_weather', description: TOOLS.get_weather.description,
      parameters: TOOLS.get_weather.parameters, strict: true,
    }];
    const input = [{ role: 'user', content: QUESTION }];
    const first = await client.responses.create({ model: 'o4-mini', instructions: INSTRUCTIONS, input, tools });
    input.push(...first.output);
    for (const item of first.output.filter(o => o.type === 'function_call')) {
      const result = await executeToolCall(tracer, { id: item.call_id, function: { name: item.name, arguments: item.arguments } });
      input.push({ type: 'function_call_output', call_id: item.call_id, output: result.content });
    }
    const second = await client.responses.create({ model: 'o4-mini', instructions: INSTRUCTIONS, input, tools });
    return second.output_text;
  },
};
