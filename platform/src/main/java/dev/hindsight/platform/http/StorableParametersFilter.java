package dev.hindsight.platform.http;

import dev.hindsight.platform.json.StorableText;
import dev.hindsight.platform.problem.Problem;
import dev.hindsight.platform.problem.Problem.FieldError;
import io.quarkus.vertx.web.RouteFilter;
import io.vertx.core.MultiMap;
import io.vertx.core.json.Json;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Refuses, before any endpoint sees it, a request whose path or query parameters hold text no Hindsight store can
 * hold or look up ({@link StorableText}: a percent-encoded NUL, {@code %00}), and a query string that cannot be
 * decoded: 400 problem+json naming the parameter, instead of a database error deep inside a query.
 */
@ApplicationScoped
class StorableParametersFilter {

    @RouteFilter(Integer.MAX_VALUE - 1)
    void refuseUnstorable(RoutingContext context) {
        List<FieldError> errors = new ArrayList<>();
        String path = context.request().path();
        if (path != null && path.toLowerCase(Locale.ROOT).contains("%00")) {
            errors.add(new FieldError("path", "contains a percent-encoded NUL character (%00), which no identifier "
                    + "can hold"));
        }
        if (context.request().query() != null) {
            MultiMap parameters;
            try {
                parameters = context.queryParams();
            } catch (RuntimeException malformed) {
                refuse(context, List.of(new FieldError("query", "cannot be decoded: " + malformed.getMessage())));
                return;
            }
            for (Map.Entry<String, String> parameter : parameters) {
                String problem = StorableText.problem(parameter.getKey());
                if (problem == null) {
                    problem = StorableText.problem(parameter.getValue());
                }
                if (problem != null) {
                    errors.add(new FieldError(parameter.getKey(), problem));
                }
            }
        }
        if (errors.isEmpty()) {
            context.next();
        } else {
            refuse(context, errors);
        }
    }

    private static void refuse(RoutingContext context, List<FieldError> errors) {
        Problem problem = Problem.of(400, "Invalid request", "A parameter cannot be read", errors)
                .withInstance(context.request().path());
        context.response().setStatusCode(400)
                .putHeader("Content-Type", Problem.MEDIA_TYPE)
                .end(Json.encode(problem));
    }
}
