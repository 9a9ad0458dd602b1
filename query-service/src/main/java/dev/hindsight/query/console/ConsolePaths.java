package dev.hindsight.query.console;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** The console's URLs: a contract, bookmarks and other tools link to them. */
public final class ConsolePaths {

    public static final String UI = "/ui";
    public static final String SIGN_IN = UI + "/sign-in";
    public static final String SIGN_OUT = UI + "/sign-out";
    public static final String SESSIONS = UI + "/sessions";
    /** Server-sent rows of a live sessions list. */
    public static final String LIVE_SESSIONS = UI + "/live/sessions";

    /** A tenant's projects of memories; a project's memories are under {@code /ui/projects/{project}/memories}. */
    public static final String PROJECTS = UI + "/projects";
    public static final String MEMORIES = UI + "/memories";

    private ConsolePaths() {
    }

    /** A session's page: the id is the agent's text, so every character outside the unreserved set is encoded. */
    public static String session(String sessionId) {
        return SESSIONS + "/" + segment(sessionId);
    }

    /**
     * An id (the agent's text) as one path segment: every character outside the unreserved set is percent-encoded,
     * a space as %20.
     */
    public static String segment(String id) {
        return URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
