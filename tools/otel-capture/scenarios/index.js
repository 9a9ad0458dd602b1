'use strict';
// The scenarios, in the order they run. Each writes system-tests/src/test/resources/otel-corpus/<name>.json.
module.exports = [
  require('./otel-openai-tool-loop'),
  require('./otel-openai-parallel-tools'),
  require('./otel-openai-streamed'),
  require('./otel-openai-repeated-turn'),
  require('./otel-openai-trimmed-history'),
  require('./otel-openai-responses-tool-loop'),
  require('./openinference-openai-tool-loop'),
  require('./openinference-langchain-tool-loop'),
  require('./otel-supervisor-two-workers'),
  require('./genai-conventions-memory-agent'),
];
