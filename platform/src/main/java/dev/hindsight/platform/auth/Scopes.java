package dev.hindsight.platform.auth;

/** The scopes an API key can grant; resources check them with {@code @RolesAllowed}. */
public final class Scopes {

    /** Write: publish events through ingest-service; record memories and their feedback and outcomes. */
    public static final String INGEST = "ingest";
    /** Read projections, summaries, evaluations and memories. */
    public static final String READ = "read";
    /** Operator actions: rebuilds, retention, tenant-wide deletes. */
    public static final String ADMIN = "admin";
    /** Erase sessions, a data subject or the whole tenant, and read what became of an erasure (ADR 0028). */
    public static final String ERASE = "erase";

    private Scopes() {
    }
}
