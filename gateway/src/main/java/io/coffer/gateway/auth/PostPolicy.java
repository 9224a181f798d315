package io.coffer.gateway.auth;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A POST Object policy document (base64 JSON): its expiration and its conditions ({@code {"field": "value"}} and
 * {@code ["eq", "$field", "value"]} exact matches, {@code ["starts-with", "$field", "prefix"]}, and
 * {@code ["content-length-range", min, max]}). A document that is not base64, not JSON, lacks an expiration or
 * conditions, or holds a condition of another shape is InvalidPolicyDocument; a form it does not allow is
 * AccessDenied "Invalid according to Policy", as in S3.
 */
public final class PostPolicy {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Form fields no condition needs to name: the signature's own and those S3 exempts. */
    private static final List<String> EXEMPT = List.of("policy", "x-amz-signature", "signature", "awsaccesskeyid",
            "file");

    private final Instant expiration;
    private final List<Condition> conditions;

    /** One condition: {@code op} is eq, starts-with or content-length-range (then {@code min}, {@code max}). */
    record Condition(String op, String field, String value, long min, long max) {
        String describe() {
            return op.equals("content-length-range") ? "[\"content-length-range\", " + min + ", " + max + "]"
                    : "[\"" + op + "\", \"$" + field + "\", \"" + value + "\"]";
        }
    }

    private PostPolicy(Instant expiration, List<Condition> conditions) {
        this.expiration = expiration;
        this.conditions = conditions;
    }

    public static PostPolicy parse(String base64) {
        byte[] json;
        try {
            json = Base64.getMimeDecoder().decode(base64.trim());
        } catch (IllegalArgumentException e) {
            throw invalid("Invalid Policy: Invalid Base64 Encoding.");
        }
        JsonNode root;
        try {
            root = JSON.readTree(new String(json, StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            throw invalid("Invalid Policy: Invalid JSON.");
        }
        if (root == null || !root.isObject()) {
            throw invalid("Invalid Policy: Invalid JSON.");
        }
        JsonNode exp = root.get("expiration");
        if (exp == null || !exp.isTextual()) {
            throw invalid("Invalid Policy: Policy missing expiration.");
        }
        Instant expiration;
        try {
            expiration = Instant.parse(exp.asText());
        } catch (DateTimeParseException e) {
            throw invalid("Invalid Policy: Invalid 'expiration' value: '" + exp.asText() + "'");
        }
        JsonNode conds = root.get("conditions");
        if (conds == null || !conds.isArray()) {
            throw invalid("Invalid Policy: Policy missing conditions.");
        }
        List<Condition> list = new ArrayList<>();
        for (JsonNode c : conds) {
            list.add(condition(c));
        }
        return new PostPolicy(expiration, List.copyOf(list));
    }

    private static Condition condition(JsonNode c) {
        if (c.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> it = c.fields();
            if (!it.hasNext()) {
                throw invalid("Invalid Policy: Invalid Simple-Condition: Simple-Conditions must have exactly one"
                        + " property specified.");
            }
            Map.Entry<String, JsonNode> e = it.next();
            if (it.hasNext() || !e.getValue().isValueNode()) {
                throw invalid("Invalid Policy: Invalid Simple-Condition: Simple-Conditions must have exactly one"
                        + " property specified.");
            }
            return new Condition("eq", field(e.getKey()), e.getValue().asText(), 0, 0);
        }
        if (!c.isArray() || c.size() != 3 || !c.get(0).isTextual()) {
            throw invalid("Invalid Policy: Invalid Condition: " + c);
        }
        String op = c.get(0).asText().toLowerCase(Locale.ROOT);
        switch (op) {
            case "eq", "starts-with" -> {
                if (!c.get(1).isTextual() || !c.get(1).asText().startsWith("$") || !c.get(2).isValueNode()) {
                    throw invalid("Invalid Policy: Invalid Condition: " + c);
                }
                return new Condition(op, field(c.get(1).asText().substring(1)), c.get(2).asText(), 0, 0);
            }
            case "content-length-range" -> {
                if (!c.get(1).canConvertToLong() || !c.get(2).canConvertToLong()) {
                    throw invalid("Invalid Policy: Invalid content-length-range: " + c);
                }
                long min = c.get(1).asLong();
                long max = c.get(2).asLong();
                if (min < 0 || max < min) {
                    throw invalid("Invalid Policy: Invalid content-length-range: " + c);
                }
                return new Condition(op, null, null, min, max);
            }
            default -> throw invalid("Invalid Policy: Invalid Condition: unknown operation " + op);
        }
    }

    private static String field(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    /**
     * Checks the form: not expired at {@code now}, each eq/starts-with condition met by {@code fields} (lower-case
     * names; the bucket included as {@code bucket}), and every field other than the exempt ones and
     * {@code x-ignore-*} named by a condition.
     */
    public void check(Instant now, Map<String, String> fields) {
        if (!now.isBefore(expiration)) {
            throw denied("Invalid according to Policy: Policy expired.");
        }
        for (Condition c : conditions) {
            if (c.op().equals("content-length-range")) {
                continue;
            }
            String v = fields.get(c.field());
            boolean ok = c.op().equals("eq") ? c.value().equals(v)
                    : (v == null ? c.value().isEmpty() : v.startsWith(c.value()));
            if (!ok) {
                throw denied("Invalid according to Policy: Policy Condition failed: " + c.describe());
            }
        }
        for (String name : fields.keySet()) {
            if (EXEMPT.contains(name) || name.startsWith("x-ignore-") || name.equals("bucket")) {
                continue;
            }
            if (conditions.stream().noneMatch(c -> name.equals(c.field()))) {
                throw denied("Invalid according to Policy: Extra input fields: " + name);
            }
        }
    }

    /** The smallest file the policy allows (0 without a content-length-range). */
    public long minLength() {
        return conditions.stream().filter(c -> c.op().equals("content-length-range")).mapToLong(Condition::min)
                .max().orElse(0);
    }

    /** The largest file the policy allows ({@code Long.MAX_VALUE} without a content-length-range). */
    public long maxLength() {
        return conditions.stream().filter(c -> c.op().equals("content-length-range")).mapToLong(Condition::max)
                .min().orElse(Long.MAX_VALUE);
    }

    private static S3Exception invalid(String message) {
        return new S3Exception(S3ErrorCode.INVALID_POLICY_DOCUMENT, message);
    }

    private static S3Exception denied(String message) {
        return new S3Exception(S3ErrorCode.ACCESS_DENIED, message);
    }
}
