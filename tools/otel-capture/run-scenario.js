'use strict';
// One scenario in a process of its own (started by capture.js), so that each has fresh providers and only its own
// instrumentation patches the client library. Usage: node run-scenario.js <scenario>
// Needs CAPTURE_FAKE_OPENAI_URL and CAPTURE_OTLP_ENDPOINT; prints the agent's answer as JSON on stdout.

const { context } = require('@opentelemetry/api');
const { setUpTelemetry } = require('./lib/telemetry');
const { inAgentSpan } = require('./lib/agent');
const scenarios = require('./scenarios');

async function main() {
  const name = process.argv[2];
  const scenario = scenarios.find(s => s.name === name);
  if (!scenario) throw new Error(`unknown scenario ${name}`);
  const env = {
    scenario: name,
    baseURL: required('CAPTURE_FAKE_OPENAI_URL'),
    otlpEndpoint: required('CAPTURE_OTLP_ENDPOINT'),
  };
  const { tracer, flush } = setUpTelemetry({
    scenario: name,
    otlpEndpoint: env.otlpEndpoint,
    instrumentation: scenario.instrumentation,
    serviceName: `capture-${scenario.agentName}`,
  });
  let answer;
  try {
    answer = await inAgentSpan(tracer, scenario, async () => {
      if (scenario.instrumentation.startsWith('openinference-')) {
        // OpenInference's own way to name a session: spans its instrumentations make in this context get session.id.
        const { setSession } = require('@arizeai/openinference-core');
        const ctx = setSession(context.active(), { sessionId: scenario.conversationId });
        return context.with(ctx, () => scenario.run({ tracer, env }));
      }
      return scenario.run({ tracer, env });
    });
  } finally {
    await flush();
  }
  process.stdout.write(`${JSON.stringify({ scenario: name, answer })}\n`);
}

function required(variable) {
  const value = process.env[variable];
  if (!value) throw new Error(`${variable} is not set; run capture.js, which starts the servers`);
  return value;
}

main().catch(err => {
  process.stderr.write(`run-scenario ${process.argv[2]}: ${err.stack || err}\n`);
  process.exit(1);
});
