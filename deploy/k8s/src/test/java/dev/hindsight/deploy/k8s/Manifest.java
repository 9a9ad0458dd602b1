package dev.hindsight.deploy.k8s;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One rendered document: as written ({@code raw}) and as the Kubernetes object model reads it ({@code typed}: a
 * fabric8 or Strimzi model object, or the raw tree for custom resources no Java model describes).
 */
record Manifest(String apiVersion, String kind, String name, JsonNode raw, Object typed) {

    /** The typed object, as the class its kind maps to. */
    <T> T as(Class<T> type) {
        return type.cast(typed);
    }

    boolean is(String kind) {
        return this.kind.equals(kind);
    }

    @Override
    public String toString() {
        return kind + "/" + name;
    }
}
