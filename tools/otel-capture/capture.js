'use strict';
// Records what real OpenTelemetry / OpenInference instrumentations of LLM clients export, as OTLP/JSON fixtures.
// Starts the fake model server and the OTLP sink on 127.0.0.1 (random ports), runs each scenario in a process of
// its own, checks what it exported and writes <out>/<scenario>.json.
//
// Usage: node capture.js [--out DIR] [--only NAME[,NAME...]]

const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { FakeOpenAI } = require('./lib/fake-openai');
const { OtlpSink } = require('./lib/otlp-sink');
const { checkFixture, summarize } = require('./lib/validate');
const scenarios = require('./scenarios');

const HERE = __dirname;
const DEFAULT_OUT = path.resolve(HERE, '../../system-tests/src/test/resources/otel-corpus');
const SCENARIO_TIMEOUT_MS = 120_000;

const COMMON_PACKAGES = [
  '@opentelemetry/api',
  '@opentelemetry/sdk-trace-node',
  '@opentelemetry/sdk-logs',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/exporter-logs-otlp-http',
];
const PACKAGES = {
  'otel-openai': ['@opentelemetry/instrumentation-openai', 'openai'],
  'genai-by-hand': ['openai'],
  'openinference-openai': ['@arizeai/openinference-instrumentation-openai', '@arizeai/openinference-core', 'openai'],
  'openinference-langchain': [
    '@arizeai/openinference-instrumentation-langchain',
    '@arizeai/openinference-core',
    '@langchain/core',
    '@langchain/openai',
    'openai',
  ],
};

function parseArgs(argv) {
  const args = { out: DEFAULT_OUT, only: null };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out') args.out = path.resolve(argv[++i]);
    else if (argv[i] === '--only') args.only = argv[++i].split(',');
    else throw new Error(`unknown argument ${argv[i]}; usage: node capture.js [--out DIR] [--only NAME[,NAME...]]`);
  }
  return args;
}

/** The installed version of an npm package (what the fixture was captured with). */
function installedVersion(pkg) {
  const file = path.join(HERE, 'node_modules', ...pkg.split('/'), 'package.json');
  return JSON.parse(fs.readFileSync(file, 'utf8')).version;
}

function capturedWith(scenario) {
  const out = {};
  for (const pkg of [...PACKAGES[scenario.instrumentation], ...COMMON_PACKAGES]) out[pkg] = installedVersion(pkg);
  return out;
}

/** The child's environment: ours without any OTel/LangSmith settings that would change what is exported. */
function childEnv(modelPort, sinkPort) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(OTEL_|LANGCHAIN_|LANGSMITH_|OPENAI_)/.test(k)) continue;
    env[k] = v;
  }
  env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT = 'true';
  env.CAPTURE_FAKE_OPENAI_URL = `http://127.0.0.1:${modelPort}/v1`;
  env.CAPTURE_OTLP_ENDPOINT = `http://127.0.0.1:${sinkPort}`;
  return env;
}

function runChild(name, env) {
  return new Promise(resolve => {
    const child = spawn(process.execPath, [path.join(HERE, 'run-scenario.js'), name], {
      env,
      cwd: HERE,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', d => (stdout += d));
    child.stderr.on('data', d => (stderr += d));
    const timer = setTimeout(() => {
      stderr += `\n(timed out after ${SCENARIO_TIMEOUT_MS} ms)`;
      child.kill('SIGKILL');
    }, SCENARIO_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const selected = args.only ? scenarios.filter(s => args.only.includes(s.name)) : scenarios;
  if (args.only && selected.length !== args.only.length) {
    throw new Error(`unknown scenario in --only ${args.only.join(',')}; known: ${scenarios.map(s => s.name).join(', ')}`);
  }
  fs.mkdirSync(args.out, { recursive: true });
  const fake = new FakeOpenAI();
  const sink = new OtlpSink();
  const modelPort = await fake.listen();
  const sinkPort = await sink.listen();
  console.log(`fake model server on 127.0.0.1:${modelPort}, OTLP sink on 127.0.0.1:${sinkPort}`);
  const failures = [];
  try {
    for (const scenario of selected) {
      fake.load(scenario.name, scenario.script);
      sink.start(scenario.name);
      const child = await runChild(scenario.name, childEnv(modelPort, sinkPort));
      const problems = [...fake.problems(), ...sink.errors];
      if (child.code !== 0) {
        problems.unshift(`the scenario's process exited with ${child.code ?? child.signal}:\n${child.stderr.trim()}`);
      }
      const fixture = {
        scenario: scenario.name,
        description: scenario.description,
        captured_with: capturedWith(scenario),
        exports: sink.exports,
      };
      if (problems.length === 0) problems.push(...checkFixture(scenario, fixture, fake.scenario.requests));
      if (problems.length) {
        failures.push(scenario.name);
        console.error(`FAILED ${scenario.name}:\n  - ${problems.join('\n  - ')}`);
        continue;
      }
      const file = path.join(args.out, `${scenario.name}.json`);
      fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(fixture, null, 2)}\n`);
      fs.renameSync(`${file}.tmp`, file);
      console.log(`wrote ${path.relative(process.cwd(), file)}\n${summarize(fixture)}`);
    }
  } finally {
    await fake.close();
    await sink.close();
  }
  if (failures.length) {
    throw new Error(`${failures.length} of ${selected.length} scenarios failed: ${failures.join(', ')}`);
  }
  console.log(`captured ${selected.length} fixtures in ${args.out}`);
}

main().catch(err => {
  console.error(`capture failed: ${err.message}`);
  process.exit(1);
});
