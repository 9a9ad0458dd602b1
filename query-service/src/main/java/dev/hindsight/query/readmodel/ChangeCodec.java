package dev.hindsight.query.readmodel;

import dev.hindsight.platform.tenant.TenantId;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * Changes as PostgreSQL NOTIFY payloads (text below 8000 bytes each): one record per change, fields separated by
 * U+001F and records by U+001E, {@code %} escaping those three characters inside a field. A change whose record alone
 * would not fit is sent as {@link #EVERYTHING}, which tells every reader to forget all it cached: correct, only less
 * efficient, whatever an id looks like.
 */
final class ChangeCodec {

    /** PostgreSQL refuses payloads of 8000 bytes or more. */
    public static final int MAX_PAYLOAD_BYTES = 7999;
    /** The kind of a change that invalidates every cached read (of every tenant). */
    public static final String EVERYTHING = "*";

    private static final char FIELD = '\u001f';
    private static final char RECORD = '\u001e';

    private ChangeCodec() {
    }

    /** The payloads that carry {@code changes}, in order, each at most {@code maxBytes} bytes of UTF-8. */
    public static List<String> encode(List<Change> changes, int maxBytes) {
        List<String> payloads = new ArrayList<>();
        StringBuilder payload = new StringBuilder();
        int payloadBytes = 0;
        for (Change change : changes) {
            String record = record(change);
            int bytes = record.getBytes(StandardCharsets.UTF_8).length;
            if (bytes > maxBytes) {
                record = record(Change.everything(change.at()));
                bytes = record.getBytes(StandardCharsets.UTF_8).length;
            }
            int separator = payload.isEmpty() ? 0 : 1;
            if (payloadBytes + separator + bytes > maxBytes) {
                payloads.add(payload.toString());
                payload.setLength(0);
                payloadBytes = 0;
                separator = 0;
            }
            if (separator == 1) {
                payload.append(RECORD);
            }
            payload.append(record);
            payloadBytes += separator + bytes;
        }
        if (!payload.isEmpty()) {
            payloads.add(payload.toString());
        }
        return payloads;
    }

    public static List<String> encode(List<Change> changes) {
        return encode(changes, MAX_PAYLOAD_BYTES);
    }

    /** The changes a payload carries; a malformed record is read as {@link #EVERYTHING} (never silently skipped). */
    public static List<Change> decode(String payload) {
        List<Change> changes = new ArrayList<>();
        if (payload == null || payload.isEmpty()) {
            return changes;
        }
        for (String record : split(payload, RECORD)) {
            changes.add(change(record));
        }
        return changes;
    }

    private static Change change(String record) {
        List<String> fields = split(record, FIELD);
        try {
            if (fields.size() != 7) {
                throw new IllegalArgumentException("expected 7 fields, got " + fields.size());
            }
            Change.TradingDay trading = fields.get(5).isEmpty() ? null : new Change.TradingDay(
                    nullIfEmpty(unescape(fields.get(4))), LocalDate.parse(fields.get(5)),
                    nullIfEmpty(unescape(fields.get(6))));
            Instant at = Instant.ofEpochMilli(Long.parseLong(fields.get(3)));
            if (EVERYTHING.equals(fields.get(0))) {
                return Change.everything(at);
            }
            return new Change(TenantId.of(unescape(fields.get(1))), unescape(fields.get(0)), unescape(fields.get(2)), at,
                    trading);
        } catch (RuntimeException malformed) {
            return Change.everything(Instant.now());
        }
    }

    private static String record(Change change) {
        Change.TradingDay day = change.trading();
        return escape(change.kind()) + FIELD + escape(change.tenant() == null ? "" : change.tenant().value()) + FIELD + escape(change.id()) + FIELD
                + (change.at() == null ? Instant.now() : change.at()).toEpochMilli() + FIELD
                + (day == null ? "" : escape(day.jobId())) + FIELD
                + (day == null || day.date() == null ? "" : day.date().toString()) + FIELD
                + (day == null ? "" : escape(day.model()));
    }

    private static String nullIfEmpty(String value) {
        return value.isEmpty() ? null : value;
    }

    static String escape(String value) {
        if (value == null) {
            return "";
        }
        StringBuilder out = null;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            String replacement = switch (c) {
                case '%' -> "%25";
                case FIELD -> "%1F";
                case RECORD -> "%1E";
                default -> null;
            };
            if (replacement != null && out == null) {
                out = new StringBuilder(value.length() + 8).append(value, 0, i);
            }
            if (out != null) {
                if (replacement != null) {
                    out.append(replacement);
                } else {
                    out.append(c);
                }
            }
        }
        return out == null ? value : out.toString();
    }

    static String unescape(String value) {
        if (value.indexOf('%') < 0) {
            return value;
        }
        StringBuilder out = new StringBuilder(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '%') {
                if (i + 2 >= value.length()) {
                    throw new IllegalArgumentException("truncated escape in " + value);
                }
                out.append((char) Integer.parseInt(value.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static List<String> split(String value, char separator) {
        List<String> parts = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < value.length(); i++) {
            if (value.charAt(i) == separator) {
                parts.add(value.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(value.substring(start));
        return parts;
    }
}
