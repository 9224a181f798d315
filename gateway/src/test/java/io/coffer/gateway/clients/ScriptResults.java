package io.coffer.gateway.clients;

import software.amazon.awssdk.protocols.jsoncore.JsonNode;

/** Fields of the JSON object a client script prints ({@link ExternalClients#boto3Script}); a missing one fails. */
final class ScriptResults {
    private ScriptResults() {}

    static boolean bool(JsonNode result, String field) {
        return result.field(field).orElseThrow(() -> new AssertionError("no " + field + " in " + result)).asBoolean();
    }

    /** A string field, or a number as its decimal text. */
    static String text(JsonNode result, String field) {
        JsonNode n = result.field(field).orElseThrow(() -> new AssertionError("no " + field + " in " + result));
        return n.isNumber() ? n.asNumber() : n.asString();
    }
}
