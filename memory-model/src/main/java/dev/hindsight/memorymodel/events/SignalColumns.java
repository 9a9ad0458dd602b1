package dev.hindsight.memorymodel.events;

import dev.hindsight.events.memory.MemoryEvent;
import dev.hindsight.events.memory.MemorySignalRecorded;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * A run of {@code MemorySignalRecorded} events as columns, one array per column, for one set-based statement
 * ({@code unnest} in PostgreSQL) in every projection of {@code hindsight.memory.v1}: a search that returns ten memories
 * is then one statement, not ten. Kinds are lower case, as the databases store them; times are the events'
 * {@code recorded_at}.
 */
public record SignalColumns(String[] tenants, UUID[] eventIds, UUID[] memoryIds, String[] kinds, Boolean[] positives,
        String[] sessionIds, String[] sources, OffsetDateTime[] times) {

    /** The columns of {@code events}, each of which must carry a {@code MemorySignalRecorded}. */
    public static SignalColumns of(List<MemoryEvent> events) {
        int n = events.size();
        SignalColumns columns = new SignalColumns(new String[n], new UUID[n], new UUID[n], new String[n],
                new Boolean[n], new String[n], new String[n], new OffsetDateTime[n]);
        for (int i = 0; i < n; i++) {
            MemoryEvent event = events.get(i);
            MemorySignalRecorded signal = (MemorySignalRecorded) event.getPayload();
            columns.tenants[i] = event.getHeader().getTenantId();
            columns.eventIds[i] = event.getHeader().getEventId();
            columns.memoryIds[i] = UUID.fromString(event.getMemoryId());
            columns.kinds[i] = signal.getKind().name().toLowerCase(Locale.ROOT);
            columns.positives[i] = signal.getPositive();
            columns.sessionIds[i] = signal.getSessionId();
            columns.sources[i] = signal.getSource();
            columns.times[i] = OffsetDateTime.ofInstant(event.getHeader().getRecordedAt(), ZoneOffset.UTC);
        }
        return columns;
    }
}
