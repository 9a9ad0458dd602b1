package dev.hindsight.testing;

import java.util.ArrayList;
import java.util.List;

/**
 * A project whose memories all say much the same thing, and one lesson that answers what a question adds beyond it:
 * the case relevance and hubness are for (design.md § Semantic search). With all-MiniLM-L6-v2, the plain cosine ranks
 * the lesson 5th for {@link #QUESTION}, behind memories about the shared subject; relevance ranks it 1st.
 * {@link #QUESTION_NEAR_THE_CROWD} also shares its words with the crowd ("the checkout service, requests timed out
 * during the deploy"): relevance alone ranks the lesson 4th, behind memories of the crowd, each of which is close to
 * many others; the plain cosine less hubness 2nd; relevance less half the hubness 1st (by 0.15).
 */
public final class SameSubjectMemories {

    /** A memory's title and content. */
    public record Text(String title, String content) {
    }

    public static final Text LESSON = new Text("Store timestamps in UTC and convert at the edge",
            "Invoices dated near midnight showed the previous day for customers in other time zones, because the "
                    + "server's local zone was used to format dates. Storing instants in UTC and converting to the "
                    + "customer's zone only for display fixed the dates.");

    public static final String QUESTION =
            "checkout service requests timed out and order dates look wrong for customers abroad";

    public static final String QUESTION_NEAR_THE_CROWD =
            "checkout service requests timed out during the deploy and order dates look wrong for customers abroad";

    private SameSubjectMemories() {
    }

    /** The 60 memories about the same subject: twelve services, five symptoms, one remedy. */
    public static List<Text> sameSubject() {
        String[] services = {"the checkout service", "the billing batch", "the search indexer", "the auth gateway",
            "the report generator", "the notification worker", "the upload handler", "the pricing engine",
            "the inventory sync", "the session store", "the audit exporter", "the feature flag service"};
        String[] symptoms = {"responses became slow under load", "requests timed out during the deploy",
            "the error rate rose after a config change", "memory grew until the pod restarted",
            "the queue backed up overnight"};
        List<Text> texts = new ArrayList<>();
        for (String service : services) {
            for (String symptom : symptoms) {
                texts.add(new Text("In " + service + ", " + symptom, "In " + service + " " + symptom
                        + ". We looked at the dashboards and the logs, rolled back, and it recovered."));
            }
        }
        return texts;
    }
}
