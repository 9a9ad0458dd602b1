package dev.hindsight.query.console;

/** The console's URLs: a contract, bookmarks and other tools link to them. */
public final class ConsolePaths {

    public static final String UI = "/ui";
    public static final String SIGN_IN = UI + "/sign-in";
    public static final String SIGN_OUT = UI + "/sign-out";
    public static final String SESSIONS = UI + "/sessions";
    /** Server-sent rows of a live sessions list. */
    public static final String LIVE_SESSIONS = UI + "/live/sessions";

    private ConsolePaths() {
    }
}
