package io.coffer.gateway.auth;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Headers and query parameters of a {@link SignedRequest}, as the signature tests build them. */
final class RequestParts {
    private RequestParts() {
    }

    /** Headers from name, value pairs (a name given twice gets both values, in order). */
    static Map<String, List<String>> headers(String... nameValues) {
        Map<String, List<String>> m = new LinkedHashMap<>();
        for (int i = 0; i < nameValues.length; i += 2) {
            m.computeIfAbsent(nameValues[i], k -> new ArrayList<>()).add(nameValues[i + 1]);
        }
        return m;
    }

    /** Query parameters from name, value pairs, in order. */
    static List<Map.Entry<String, String>> query(String... nameValues) {
        List<Map.Entry<String, String>> q = new ArrayList<>();
        for (int i = 0; i < nameValues.length; i += 2) {
            q.add(new AbstractMap.SimpleImmutableEntry<>(nameValues[i], nameValues[i + 1]));
        }
        return q;
    }
}
