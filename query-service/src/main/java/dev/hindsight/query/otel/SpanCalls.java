package dev.hindsight.query.otel;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one span states beyond its messages, under the GenAI conventions Hindsight implements (ADR 0026) and the older
 * names still in use: a model call's usage, time to first token, provider, system instructions and tool definitions;
 * a memory operation. Each reading takes the first name present, the current one first.
 */
final class SpanCalls {

    private static final ObjectMapper JSON = new ObjectMapper();

    static final List<String> INPUT_TOKENS = List.of("gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens",
            "llm.token_count.prompt");
    static final List<String> OUTPUT_TOKENS = List.of("gen_ai.usage.output_tokens",
            "gen_ai.usage.completion_tokens", "llm.token_count.completion");
    static final List<String> CACHE_READ_TOKENS = List.of("gen_ai.usage.cache_read.input_tokens",
            "gen_ai.usage.cache_read_input_tokens", "gen_ai.usage.input_tokens.cached",
            "llm.token_count.prompt_details.cache_read");
    static final List<String> CACHE_WRITE_TOKENS = List.of("gen_ai.usage.cache_write.input_tokens",
            "gen_ai.usage.cache_creation.input_tokens", "gen_ai.usage.cache_creation_input_tokens",
            "gen_ai.usage.input_tokens.cache_write", "llm.token_count.prompt_details.cache_write");
    static final List<String> REASONING_TOKENS = List.of("gen_ai.usage.reasoning.output_tokens",
            "gen_ai.usage.output_tokens.reasoning", "llm.token_count.completion_details.reasoning");
    /** Seconds, as a double. */
    static final List<String> TIME_TO_FIRST_CHUNK = List.of("gen_ai.response.time_to_first_chunk",
            "gen_ai.response.time_to_first_token");
    static final List<String> PROVIDER = List.of("gen_ai.provider.name", "gen_ai.system", "llm.provider",
            "llm.system");

    private SpanCalls() {
    }

    static Long number(SpanFact span, List<String> keys) {
        for (String key : keys) {
            Long value = span.number(key);
            if (value != null) {
                return value;
            }
        }
        return null;
    }

    static String text(SpanFact span, List<String> keys) {
        for (String key : keys) {
            String value = span.text(key);
            if (value != null) {
                return value;
            }
        }
        return null;
    }

    /** The call's time to its first streamed chunk in milliseconds, or null when it did not say (not streamed). */
    static Long timeToFirstTokenMillis(SpanFact call) {
        for (String key : TIME_TO_FIRST_CHUNK) {
            JsonNode value = call.attributes().get(key);
            if (value != null && value.isNumber() && value.asDouble() >= 0) {
                return Math.round(value.asDouble() * 1000);
            }
        }
        return null;
    }

    /**
     * The instructions the call gave the model apart from the conversation: {@code gen_ai.system_instructions} (parts
     * or text), else the system messages of its input (structured, OpenInference, or {@code gen_ai.system.message}
     * events); their text parts joined by new lines, or null.
     */
    static String systemInstructions(SpanFact call) {
        JsonNode instructions = parsed(call.attributes().get("gen_ai.system_instructions"));
        List<String> texts = new ArrayList<>();
        if (instructions != null && instructions.isTextual()) {
            texts.add(instructions.textValue());
        } else if (instructions != null && instructions.isArray()) {
            instructions.forEach(part -> addText(texts, part));
        }
        if (texts.isEmpty()) {
            JsonNode messages = parsed(call.attributes().get("gen_ai.input.messages"));
            if (messages != null && messages.isArray()) {
                for (JsonNode message : messages) {
                    if ("system".equals(message.path("role").asText())) {
                        message.path("parts").forEach(part -> addText(texts, part));
                    }
                }
            }
        }
        if (texts.isEmpty()) {
            indexed(call, "llm.input_messages.").values().stream()
                    .filter(m -> m.get("message.role") != null && "system".equals(m.get("message.role").asText()))
                    .map(m -> m.get("message.content")).filter(c -> c != null && c.isTextual())
                    .forEach(c -> texts.add(c.textValue()));
        }
        if (texts.isEmpty()) {
            call.events().stream().filter(e -> e.name().equals("gen_ai.system.message"))
                    .map(e -> e.attributes().get("content")).filter(c -> c != null && c.isTextual())
                    .forEach(c -> texts.add(c.textValue()));
        }
        return texts.isEmpty() ? null : String.join("\n", texts);
    }

    private static void addText(List<String> texts, JsonNode part) {
        JsonNode content = part.get("content");
        if (part.path("type").asText("text").equals("text") && content != null && content.isTextual()) {
            texts.add(content.textValue());
        }
    }

    /**
     * The tools the call offered the model, as a JSON array: {@code gen_ai.tool.definitions}, else OpenInference's
     * {@code llm.tools.<i>.tool.json_schema}; null when it named none.
     */
    static String toolDefinitions(SpanFact call) {
        JsonNode definitions = parsed(call.attributes().get("gen_ai.tool.definitions"));
        if (definitions != null && definitions.isArray() && !definitions.isEmpty()) {
            return definitions.toString();
        }
        ArrayNode tools = JSON.createArrayNode();
        indexed(call, "llm.tools.").values().forEach(tool -> {
            JsonNode schema = parsed(tool.get("tool.json_schema"));
            if (schema != null) {
                tools.add(schema);
            }
        });
        return tools.isEmpty() ? null : tools.toString();
    }

    /** Whether the span is a memory operation: {@code search_memory}, {@code create_memory}, ... */
    static boolean isMemoryOperation(SpanFact span) {
        String operation = span.text("gen_ai.operation.name");
        return operation != null && operation.endsWith("_memory") && operation.length() > "_memory".length();
    }

    /** A memory operation's arguments as a JSON object: its query, store, record and scope as the span names them. */
    static String memoryArguments(SpanFact span) {
        ObjectNode arguments = JSON.createObjectNode();
        Map<String, List<String>> names = new java.util.LinkedHashMap<>();
        names.put("query", List.of("gen_ai.memory.query.text", "gen_ai.memory.query"));
        names.put("store_id", List.of("gen_ai.memory.store.id"));
        names.put("store_name", List.of("gen_ai.memory.store.name"));
        names.put("record_id", List.of("gen_ai.memory.record.id", "gen_ai.memory.id"));
        names.put("scope", List.of("gen_ai.memory.scope"));
        names.forEach((name, keys) -> {
            String value = text(span, keys);
            if (value != null) {
                arguments.put(name, value);
            }
        });
        return arguments.isEmpty() ? null : arguments.toString();
    }

    /** What a memory operation gave back: its records, else how many. */
    static String memoryResult(SpanFact span) {
        String records = span.text("gen_ai.memory.records");
        if (records != null) {
            return records;
        }
        Long count = number(span, List.of("gen_ai.memory.record.count", "gen_ai.memory.search.result.count"));
        return count == null ? null : JSON.createObjectNode().put("record_count", count).toString();
    }

    /** Flattened indexed attributes ({@code prefix + i + "." + rest}) by index, each as rest → value. */
    static Map<Integer, Map<String, JsonNode>> indexed(SpanFact span, String prefix) {
        Map<Integer, Map<String, JsonNode>> byIndex = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = span.attributes().fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> attribute = it.next();
            String key = attribute.getKey();
            if (!key.startsWith(prefix)) {
                continue;
            }
            String rest = key.substring(prefix.length());
            int dot = rest.indexOf('.');
            try {
                int index = Integer.parseInt(dot < 0 ? rest : rest.substring(0, dot));
                byIndex.computeIfAbsent(index, i -> new java.util.HashMap<>()).put(dot < 0 ? ""
                        : rest.substring(dot + 1), attribute.getValue());
            } catch (NumberFormatException e) {
                // not an indexed attribute
            }
        }
        return byIndex;
    }

    /** A JSON value, or the JSON a text value holds (a text that is not JSON stays text); null for none. */
    static JsonNode parsed(JsonNode value) {
        if (value == null || value.isNull()) {
            return null;
        }
        if (value.isTextual()) {
            String text = value.textValue().strip();
            if (text.startsWith("[") || text.startsWith("{")) {
                try {
                    return JSON.readTree(text);
                } catch (JsonProcessingException e) {
                    return value;
                }
            }
        }
        return value;
    }
}
