package dev.hindsight.ingest.otlp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import dev.hindsight.events.EventHeader;
import dev.hindsight.events.spans.LogRecorded;
import dev.hindsight.events.spans.SpanEvent;
import dev.hindsight.ingest.publish.EventLog;
import dev.hindsight.ingest.request.EventIds;
import dev.hindsight.ingest.request.Sender;
import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.auth.TenantContext;
import dev.hindsight.platform.kafka.EventHeaders;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import dev.hindsight.platform.problem.Problem;
import dev.hindsight.platform.problem.ProblemException;
import dev.hindsight.platform.redact.Redactor;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsPartialSuccess;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import io.opentelemetry.proto.collector.trace.v1.ExportTracePartialSuccess;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.zip.GZIPInputStream;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * OTLP/HTTP traces and logs in (ADR 0012, ADR 0025): {@code POST /otlp/v1/traces} and {@code POST /otlp/v1/logs},
 * so that an agent instrumented with OpenTelemetry needs only {@code OTEL_EXPORTER_OTLP_ENDPOINT=<ingest>/otlp} and
 * its API key in {@code OTEL_EXPORTER_OTLP_HEADERS}. Protobuf or OTLP/JSON, gzip or not. The GenAI and OpenInference
 * spans, and the GenAI events sent as log records, are published to {@code hindsight.spans.v1}; the answer, an export
 * response in the request's encoding, comes after Kafka acknowledged them; records refused alone are counted in its
 * {@code partial_success}. Errors are problem+json, as everywhere in Hindsight:
 * 400 for a body that cannot be decoded, 413 for one too large, 503 with {@code Retry-After} when Kafka does not
 * acknowledge (OTel exporters retry 429, 502, 503 and 504).
 */
@Path("/otlp/v1")
@Tag(name = "OpenTelemetry")
class OtlpResource {

    static final String PROTOBUF = "application/x-protobuf";
    static final String JSON = "application/json";
    /** The most a gzip body may inflate to: four times the largest body accepted (quarkus.http.limits). */
    static final int MAX_INFLATED_BYTES = 16 * 1024 * 1024;

    /**
     * OTLP/JSON is read with a plain mapper, not the service's (which refuses a whole body holding text that cannot be
     * stored): here such text refuses only the span that holds it ({@link OtlpSpans}), as it does in protobuf.
     */
    private static final ObjectMapper JSON_READER = new ObjectMapper();

    private final EventLog events;
    private final TenantContext tenant;
    private final Redactor redactor;
    private final Clock clock = Clock.systemUTC();

    public OtlpResource(EventLog events, TenantContext tenant, Redactor redactor) {
        this.events = events;
        this.tenant = tenant;
        this.redactor = redactor;
    }

    @POST
    @Path("/traces")
    @Consumes({PROTOBUF, JSON})
    @RolesAllowed(Scopes.INGEST)
    @Blocking
    @Operation(operationId = "exportTraces",
            summary = "Export OpenTelemetry traces (OTLP/HTTP)", description = "OTLP's ExportTraceServiceRequest as "
            + "protobuf or JSON, optionally gzip. GenAI (gen_ai.*) and OpenInference spans are kept; other spans are "
            + "ignored. Answered with an ExportTraceServiceResponse once Kafka acknowledged the kept spans.")
    @RequestBody(required = true, content = {
            @Content(mediaType = PROTOBUF, schema = @Schema(type = SchemaType.STRING, format = "binary",
                    description = "opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest")),
            @Content(mediaType = JSON, schema = @Schema(type = SchemaType.OBJECT,
                    description = "ExportTraceServiceRequest in OTLP/JSON (hex ids)"))})
    @APIResponse(responseCode = "200", description = "ExportTraceServiceResponse, in the request's encoding; "
            + "partial_success counts the spans refused alone and says why", content = {
            @Content(mediaType = PROTOBUF, schema = @Schema(type = SchemaType.STRING, format = "binary")),
            @Content(mediaType = JSON, schema = @Schema(type = SchemaType.OBJECT))})
    @APIResponse(responseCode = "503", description = "Kafka did not acknowledge; retry after Retry-After seconds")
    public Uni<Response> export(byte[] body, @HeaderParam("Content-Type") String contentType,
            @HeaderParam("Content-Encoding") String contentEncoding,
            @Parameter(hidden = true) @HeaderParam("User-Agent") String userAgent) {
        boolean protobuf = protobuf(contentType);
        byte[] raw = inflate(body, contentEncoding);
        ExportTraceServiceRequest request;
        try {
            request = protobuf ? ExportTraceServiceRequest.parseFrom(raw) : OtlpJson.traces(raw, JSON_READER);
        } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
            throw ProblemException.badRequest("The body is not an OTLP ExportTraceServiceRequest",
                    List.of(new Problem.FieldError("body", e.getMessage())));
        }
        Sender caller = Sender.of(tenant, userAgent, null);
        OtlpSpans.Result result = OtlpSpans.of(request, redactor, caller.tenant());
        List<Outgoing<SpanEvent>> outgoing = new ArrayList<>(result.kept().size());
        for (OtlpSpans.Kept kept : result.kept()) {
            // A span exported again (an exporter's retry) is the same event: its id names tenant, trace and span.
            UUID eventId = EventIds.derived("otlp-span", caller.tenant().value(), kept.traceId(),
                    kept.span().getSpanId());
            outgoing.add(outgoing(caller, eventId, kept.traceId(), kept.span().getStartTimeUnixNano(),
                    kept.span()));
        }
        ExportTraceServiceResponse.Builder answer = ExportTraceServiceResponse.newBuilder();
        if (result.rejected() > 0) {
            answer.setPartialSuccess(ExportTracePartialSuccess.newBuilder().setRejectedSpans(result.rejected())
                    .setErrorMessage(String.join("; ", result.reasons())));
        }
        return answer(outgoing, answer.build(), protobuf);
    }

    @POST
    @Path("/logs")
    @Consumes({PROTOBUF, JSON})
    @RolesAllowed(Scopes.INGEST)
    @Blocking
    @Operation(operationId = "exportLogs",
            summary = "Export OpenTelemetry logs (OTLP/HTTP)", description = "OTLP's ExportLogsServiceRequest as "
            + "protobuf or JSON, optionally gzip. GenAI events (log records whose event name starts with gen_ai.: "
            + "gen_ai.user.message, gen_ai.choice, gen_ai.client.inference.operation.details, ...) are kept and "
            + "joined to their spans by trace and span id, whichever arrives first; other log records are ignored. "
            + "Answered with an ExportLogsServiceResponse once Kafka acknowledged the kept events.")
    @RequestBody(required = true, content = {
            @Content(mediaType = PROTOBUF, schema = @Schema(type = SchemaType.STRING, format = "binary",
                    description = "opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest")),
            @Content(mediaType = JSON, schema = @Schema(type = SchemaType.OBJECT,
                    description = "ExportLogsServiceRequest in OTLP/JSON (hex ids)"))})
    @APIResponse(responseCode = "200", description = "ExportLogsServiceResponse, in the request's encoding; "
            + "partial_success counts the log records refused alone and says why", content = {
            @Content(mediaType = PROTOBUF, schema = @Schema(type = SchemaType.STRING, format = "binary")),
            @Content(mediaType = JSON, schema = @Schema(type = SchemaType.OBJECT))})
    @APIResponse(responseCode = "503", description = "Kafka did not acknowledge; retry after Retry-After seconds")
    public Uni<Response> exportLogs(byte[] body, @HeaderParam("Content-Type") String contentType,
            @HeaderParam("Content-Encoding") String contentEncoding,
            @Parameter(hidden = true) @HeaderParam("User-Agent") String userAgent) {
        boolean protobuf = protobuf(contentType);
        byte[] raw = inflate(body, contentEncoding);
        ExportLogsServiceRequest request;
        try {
            request = protobuf ? ExportLogsServiceRequest.parseFrom(raw) : OtlpJson.logs(raw, JSON_READER);
        } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
            throw ProblemException.badRequest("The body is not an OTLP ExportLogsServiceRequest",
                    List.of(new Problem.FieldError("body", e.getMessage())));
        }
        Sender caller = Sender.of(tenant, userAgent, null);
        OtlpLogs.Result result = OtlpLogs.of(request, redactor, caller.tenant());
        List<Outgoing<SpanEvent>> outgoing = new ArrayList<>(result.kept().size());
        for (OtlpLogs.Kept kept : result.kept()) {
            // A log record has no id of its own: one exported again (an exporter retries the same request) is the
            // same event when everything it states is, its position among its span's events included (a call may
            // send the same words twice at the same instant: the user repeating a question).
            LogRecorded log = kept.log();
            UUID eventId = EventIds.derived("otlp-log", caller.tenant().value(), kept.traceId(), log.getSpanId(),
                    log.getEventName(), Long.toString(log.getTimeUnixNano()), Integer.toString(log.getPosition()),
                    log.getBody(), log.getAttributes());
            outgoing.add(outgoing(caller, eventId, kept.traceId(), log.getTimeUnixNano(), log));
        }
        ExportLogsServiceResponse.Builder answer = ExportLogsServiceResponse.newBuilder();
        if (result.rejected() > 0) {
            answer.setPartialSuccess(ExportLogsPartialSuccess.newBuilder().setRejectedLogRecords(result.rejected())
                    .setErrorMessage(String.join("; ", result.reasons())));
        }
        return answer(outgoing, answer.build(), protobuf);
    }

    private static boolean protobuf(String contentType) {
        return contentType != null && contentType.toLowerCase(Locale.ROOT).startsWith(PROTOBUF);
    }

    private Outgoing<SpanEvent> outgoing(Sender caller, UUID eventId, String traceId, long occurredNanos,
            Object payload) {
        EventHeader header = EventHeaders.create(eventId, caller.tenant(), caller.principal(), caller.client(),
                Instant.ofEpochSecond(0, occurredNanos), clock);
        return new Outgoing<>(traceId, SpanEvent.newBuilder().setHeader(header).setTraceId(traceId)
                .setPayload(payload).build(), eventId.toString());
    }

    /** The export's answer, in the request's encoding, once Kafka acknowledged what was kept. */
    private Uni<Response> answer(List<Outgoing<SpanEvent>> outgoing, Message response, boolean protobuf) {
        return events.spans(outgoing).map(receipts -> protobuf
                ? Response.ok(response.toByteArray(), PROTOBUF).build()
                : Response.ok(OtlpJson.print(response), JSON).build());
    }

    private static byte[] inflate(byte[] body, String contentEncoding) {
        if (contentEncoding == null || contentEncoding.isBlank() || contentEncoding.equalsIgnoreCase("identity")) {
            return body;
        }
        if (!contentEncoding.equalsIgnoreCase("gzip")) {
            throw new ProblemException(Problem.of(415, "Unsupported Media Type",
                    "Content-Encoding " + contentEncoding + " is not supported; send gzip or no encoding"));
        }
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(body.length * 4);
            byte[] buffer = new byte[8192];
            int read;
            while ((read = in.read(buffer)) > 0) {
                if (out.size() + read > MAX_INFLATED_BYTES) {
                    throw new ProblemException(Problem.of(413, "Payload Too Large",
                            "The body inflates to more than " + MAX_INFLATED_BYTES + " bytes"));
                }
                out.write(buffer, 0, read);
            }
            return out.toByteArray();
        } catch (IOException e) {
            throw ProblemException.badRequest("The body is not valid gzip",
                    List.of(new Problem.FieldError("body", String.valueOf(e.getMessage()))));
        }
    }
}
