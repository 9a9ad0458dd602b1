'use strict';
// The OpenTelemetry set-up of one scenario's process: a tracer provider and a logger provider, each exporting
// OTLP/HTTP JSON to the capture sink, and the one instrumentation the scenario is about. The batch processors
// export only when flushed (at the end of the scenario), logs first, then traces, so a fixture's export requests come
// in the same order on every run.

const { trace, diag, DiagConsoleLogger, DiagLogLevel } = require('@opentelemetry/api');
const { logs } = require('@opentelemetry/api-logs');
const { NodeTracerProvider, BatchSpanProcessor } = require('@opentelemetry/sdk-trace-node');
const { LoggerProvider, BatchLogRecordProcessor } = require('@opentelemetry/sdk-logs');
const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http');
const { OTLPLogExporter } = require('@opentelemetry/exporter-logs-otlp-http');
const { defaultResource, resourceFromAttributes } = require('@opentelemetry/resources');
const { registerInstrumentations } = require('@opentelemetry/instrumentation');

const BATCH = { scheduledDelayMillis: 3_600_000, maxQueueSize: 4096, maxExportBatchSize: 1024, exportTimeoutMillis: 10_000 };

/**
 * Registers providers and the scenario's instrumentation. Call before the client library is first required.
 * @returns {{ tracer: import('@opentelemetry/api').Tracer, flush: () => Promise<void> }}
 */
function setUpTelemetry({ scenario, otlpEndpoint, instrumentation, serviceName }) {
  diag.setLogger(new DiagConsoleLogger(), DiagLogLevel.WARN);
  const resource = defaultResource().merge(
    resourceFromAttributes({
      'service.name': serviceName,
      'service.version': '1.0.0',
      'deployment.environment.name': 'capture',
    }),
  );
  const headers = { 'x-capture-scenario': scenario };
  const tracerProvider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${otlpEndpoint}/v1/traces`, headers }), BATCH)],
  });
  tracerProvider.register(); // global tracer provider, AsyncLocalStorage context manager, W3C propagators
  const loggerProvider = new LoggerProvider({
    resource,
    processors: [new BatchLogRecordProcessor({ exporter: new OTLPLogExporter({ url: `${otlpEndpoint}/v1/logs`, headers }), ...BATCH })],
  });
  logs.setGlobalLoggerProvider(loggerProvider);

  switch (instrumentation) {
    case 'otel-openai': {
      // Reads OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT in its constructor; message content goes out as log
      // records (GenAI events), so it needs the logger provider.
      const { OpenAIInstrumentation } = require('@opentelemetry/instrumentation-openai');
      registerInstrumentations({ instrumentations: [new OpenAIInstrumentation()], tracerProvider, loggerProvider });
      break;
    }
    case 'openinference-openai': {
      const { OpenAIInstrumentation } = require('@arizeai/openinference-instrumentation-openai');
      registerInstrumentations({ instrumentations: [new OpenAIInstrumentation({ tracerProvider })], tracerProvider });
      break;
    }
    case 'openinference-langchain': {
      // As its README says: @langchain/core's callback manager has to be instrumented by hand.
      const { LangChainInstrumentation } = require('@arizeai/openinference-instrumentation-langchain');
      const lc = new LangChainInstrumentation({ tracerProvider });
      lc.manuallyInstrument(require('@langchain/core/callbacks/manager'));
      break;
    }
    case 'genai-by-hand':
      // The agent's framework writes its spans itself (lib/genai-by-hand.js): no instrumentation to register.
      break;
    default:
      throw new Error(`unknown instrumentation ${instrumentation}`);
  }

  return {
    tracer: trace.getTracer('hindsight-otel-capture', '1.0.0'),
    async flush() {
      await loggerProvider.forceFlush();
      await tracerProvider.forceFlush();
      await loggerProvider.shutdown();
      await tracerProvider.shutdown();
    },
  };
}

module.exports = { setUpTelemetry };
