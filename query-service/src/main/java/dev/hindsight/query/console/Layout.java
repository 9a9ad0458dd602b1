package dev.hindsight.query.console;

/** What every page's frame shows: the title, and who is signed in (null on the sign-in page). */
public record Layout(Viewer viewer, String title) {

    public boolean signedIn() {
        return viewer != null;
    }
}
