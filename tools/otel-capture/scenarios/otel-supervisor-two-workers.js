'use strict';
const { toolDefinitions, openaiClient, executeToolCall, inAgentSpan } = require('../lib/agent');

const CONVERSATION = 'conv-otel-supervisor-two-workers-0001';
const QUESTION = 'Write a two-sentence incident note about the Kafka consumer lag after the 2.3 deploy.';
const DELEGATION_TOOLS = [
  {
    type: 'function',
    function: {
      name: 'delegate_to_researcher',
      description: 'Ask the researcher agent to find facts.',
      parameters: { type: 'object', properties: { task: { type: 'string' } }, required: ['task'], additionalProperties: false },
      strict: true,
    },
  },
  {
    type: 'function',
    function: {
      name: 'delegate_to_writer',
      description: 'Ask the writer agent to draft text from facts.',
      parameters: { type: 'object', properties: { task: { type: 'string' } }, required: ['task'], additionalProperties: false },
      strict: true,
    },
  },
];
const RESEARCH_TASK = 'Find what happened to consumer lag after the 2.3 deploy and what fixed it.';
const WRITING_TASK = 'Draft a two-sentence incident note from the research findings.';
const FINDINGS = 'Consumer lag rose to 120k messages after the 2.3 deploy and fell back under 1k once max.poll.records was lowered to 200.';
const DRAFT = 'After the 2.3 deploy, Kafka consumer lag climbed to 120k messages. Lowering max.poll.records to 200 brought it back under 1k.';

/** A worker agent: its own invoke_agent span (a child of the supervisor's), two model calls around one tool call. */
async function worker(tracer, client, { agentName, agentDescription, system, task, toolName }) {
  return inAgentSpan(tracer, { agentName, agentDescription, conversationId: CONVERSATION }, async () => {
    const tools = toolDefinitions([toolName]);
    const messages = [
      { role: 'system', content: system },
      { role: 'user', content: task },
    ];
    const first = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools, temperature: 0 });
    const asked = first.choices[0].message;
    messages.push(asked);
    for (const call of asked.tool_calls) {
      messages.push(await executeToolCall(tracer, call));
    }
    const second = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools, temperature: 0 });
    return second.choices[0].message.content;
  });
}

module.exports = {
  name: 'otel-supervisor-two-workers',
  description:
    'A supervisor agent (o4-mini) delegates with two tool calls to a researcher and a writer agent, each a nested ' +
    'invoke_agent span making its own gpt-4o-mini calls around one tool call, and the supervisor then answers from ' +
    'their results.',
  instrumentation: 'otel-openai',
  agentName: 'supervisor',
  agentDescription: 'Plans the work and delegates to the researcher and the writer.',
  conversationId: CONVERSATION,
  // The delegations are answered by the workers' invoke_agent spans; only the workers' own tools get execute_tool spans.
  expectedToolSpans: 2,
  script: {
    idPrefix: 'sup',
    steps: [
      {
        expect: { model: 'o4-mini', roles: ['system', 'user'], tools: ['delegate_to_researcher', 'delegate_to_writer'] },
        reply: {
          content: null,
          tool_calls: [
            { id: 'call_sup_delegate_research', name: 'delegate_to_researcher', arguments: { task: RESEARCH_TASK } },
            { id: 'call_sup_delegate_writing', name: 'delegate_to_writer', arguments: { task: WRITING_TASK } },
          ],
        },
        usage: { prompt: 142, completion: 188, reasoning: 128 },
      },
      {
        expect: { model: 'gpt-4o-mini', roles: ['system', 'user'], tools: ['search_notes'] },
        reply: { content: null, tool_calls: [{ id: 'call_sup_research_search', name: 'search_notes', arguments: { query: 'consumer lag 2.3 deploy' } }] },
        usage: { prompt: 78, completion: 19 },
      },
      {
        expect: { model: 'gpt-4o-mini', roles: ['system', 'user', 'assistant', 'tool'], toolCallIds: ['call_sup_research_search'] },
        reply: { content: FINDINGS },
        usage: { prompt: 141, completion: 31 },
      },
      {
        expect: { model: 'gpt-4o-mini', roles: ['system', 'user'], tools: ['count_words'] },
        reply: { content: null, tool_calls: [{ id: 'call_sup_writer_count', name: 'count_words', arguments: { text: DRAFT } }] },
        usage: { prompt: 112, completion: 41 },
      },
      {
        expect: { model: 'gpt-4o-mini', roles: ['system', 'user', 'assistant', 'tool'], toolCallIds: ['call_sup_writer_count'] },
        reply: { content: DRAFT },
        usage: { prompt: 170, completion: 29 },
      },
      {
        expect: {
          model: 'o4-mini',
          roles: ['system', 'user', 'assistant', 'tool', 'tool'],
          toolCallIds: ['call_sup_delegate_research', 'call_sup_delegate_writing'],
        },
        reply: { content: `Here is the incident note: ${DRAFT}` },
        usage: { prompt: 263, completion: 93, cached: 128, reasoning: 64 },
      },
    ],
  },
  async run({ tracer, env }) {
    const client = openaiClient(env);
    const messages = [
      { role: 'system', content: 'You are a supervisor. Delegate research and writing to your workers, then answer.' },
      { role: 'user', content: QUESTION },
    ];
    const plan = await client.chat.completions.create({ model: 'o4-mini', messages, tools: DELEGATION_TOOLS });
    const asked = plan.choices[0].message;
    messages.push(asked);
    let findings = '';
    for (const call of asked.tool_calls) {
      const { task } = JSON.parse(call.function.arguments);
      let content;
      if (call.function.name === 'delegate_to_researcher') {
        findings = await worker(tracer, client, {
          agentName: 'researcher',
          agentDescription: 'Finds facts in the team notes.',
          system: 'You are a researcher. Search the notes and report the facts in one sentence.',
          task,
          toolName: 'search_notes',
        });
        content = findings;
      } else {
        content = await worker(tracer, client, {
          agentName: 'writer',
          agentDescription: 'Drafts short texts.',
          system: 'You are a writer. Draft the text, check its length with count_words, and reply with the draft only.',
          task: `${task}\n\nFindings: ${findings}`,
          toolName: 'count_words',
        });
      }
      messages.push({ role: 'tool', tool_call_id: call.id, content });
    }
    const final = await client.chat.completions.create({ model: 'o4-mini', messages, tools: DELEGATION_TOOLS });
    return final.choices[0].message.content;
  },
};
