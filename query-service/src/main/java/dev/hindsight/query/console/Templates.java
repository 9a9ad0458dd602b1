package dev.hindsight.query.console;

import dev.hindsight.platform.problem.Problem;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import java.util.List;

/** The console's pages (src/main/resources/templates/console); every expression is checked at build time. */
@CheckedTemplate(basePath = "console", defaultName = CheckedTemplate.HYPHENATED_ELEMENT_NAME)
final class Templates {

    static native TemplateInstance error(Layout layout, String message, List<Problem.FieldError> errors);

    static native TemplateInstance signIn(Layout layout, String next, String message);

    static native TemplateInstance sessions(Layout layout, SessionsPage page);

    static native TemplateInstance sessionRow(SessionRow s);

    static native TemplateInstance session(Layout layout, SessionPage session);

    static native TemplateInstance message(Layout layout, String sessionId, String sessionHref,
            SessionPage.Message message);

    static native TemplateInstance decisionSets(Layout layout, DecisionSetPage.ListPage page);

    static native TemplateInstance decisionSet(Layout layout, DecisionSetPage set);

    static native TemplateInstance versions(Layout layout, VersionsPage page);

    static native TemplateInstance projects(Layout layout, List<MemoryPages.Project> projects);

    static native TemplateInstance memories(Layout layout, MemoryPage.ListPage page);

    static native TemplateInstance memory(Layout layout, MemoryPage.Detail memory);

    static native TemplateInstance ops(Layout layout, OpsPages.Ops ops);

    private Templates() {
    }
}
