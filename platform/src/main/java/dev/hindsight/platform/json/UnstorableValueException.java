package dev.hindsight.platform.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;

/**
 * A request value that cannot be stored as sent ({@link StorableText}); Jackson adds the path of the field it was read
 * for, so the answer names it ({@code messages[0].thinking_steps[1].tool_arguments.q}). A mismatched input to Jackson:
 * the REST layer hands those to the exception mappers as they are.
 */
public class UnstorableValueException extends MismatchedInputException {

    private final String reason;

    public UnstorableValueException(JsonParser parser, String reason) {
        super(parser, reason);
        this.reason = reason;
    }

    /** What is wrong with the value, written for the producer (without the location Jackson appends). */
    public String reason() {
        return reason;
    }
}
