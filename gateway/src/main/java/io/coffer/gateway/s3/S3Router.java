package io.coffer.gateway.s3;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Maps method, bucket, key and query to the S3 action. Query parameters that name no subresource (response-*
 * overrides, listing options, presigned URL and SDK parameters such as {@code X-Amz-*}, {@code x-amz-checksum-mode} or
 * {@code x-id}, and any S3 ignores) do not change the action. A subresource S3 offers and Coffer does not (listed once,
 * in {@link #UNSUPPORTED}), or a configuration subresource with any method but GET, routes to
 * {@link S3Operation#NOT_IMPLEMENTED}: the gateway never answers a request it does not understand with a wrong success.
 */
public final class S3Router {
    /** S3's subresources Coffer does not offer: a request naming any of them is NotImplemented. */
    static final Set<String> UNSUPPORTED = Set.of(
            "accelerate", "analytics", "intelligent-tiering", "inventory", "logging",
            "metadataConfiguration", "metadataTable", "metrics", "notification", "ownershipControls", "policyStatus",
            "requestPayment", "restore", "select", "session", "torrent",
            "renameObject");
    /** The subresources that pick one of the implemented actions. */
    private static final Set<String> ROUTING = Set.of(
            "location", "uploads", "uploadId", "partNumber", "delete", "versions", "version-id-marker", "versionId",
            "attributes");

    /** GET of a bucket's configuration subresource: the configurations a Coffer bucket has, or has never set. */
    private static final Map<String, S3Operation> BUCKET_GETTERS = Map.ofEntries(
            Map.entry("versioning", S3Operation.GET_BUCKET_VERSIONING), Map.entry("acl", S3Operation.GET_BUCKET_ACL),
            Map.entry("tagging", S3Operation.GET_BUCKET_TAGGING), Map.entry("policy", S3Operation.GET_BUCKET_POLICY),
            Map.entry("cors", S3Operation.GET_BUCKET_CORS),
            Map.entry("lifecycle", S3Operation.GET_BUCKET_LIFECYCLE_CONFIGURATION),
            Map.entry("website", S3Operation.GET_BUCKET_WEBSITE),
            Map.entry("object-lock", S3Operation.GET_OBJECT_LOCK_CONFIGURATION),
            Map.entry("replication", S3Operation.GET_BUCKET_REPLICATION),
            Map.entry("encryption", S3Operation.GET_BUCKET_ENCRYPTION),
            Map.entry("publicAccessBlock", S3Operation.GET_PUBLIC_ACCESS_BLOCK));
    private static final Map<String, S3Operation> OBJECT_GETTERS = Map.of(
            "acl", S3Operation.GET_OBJECT_ACL, "tagging", S3Operation.GET_OBJECT_TAGGING,
            "retention", S3Operation.GET_OBJECT_RETENTION, "legal-hold", S3Operation.GET_OBJECT_LEGAL_HOLD);
    /**
     * The actions that take {@code versionId} (the engine checks it: InvalidArgument, NoSuchVersion); any other
     * action with one is NotImplemented.
     */
    private static final Set<S3Operation> VERSION_ID_ACTIONS = Set.of(S3Operation.GET_OBJECT,
            S3Operation.HEAD_OBJECT, S3Operation.DELETE_OBJECT, S3Operation.GET_OBJECT_ATTRIBUTES,
            S3Operation.GET_OBJECT_RETENTION, S3Operation.PUT_OBJECT_RETENTION, S3Operation.GET_OBJECT_LEGAL_HOLD,
            S3Operation.PUT_OBJECT_LEGAL_HOLD);

    private S3Router() {
    }

    public static S3Operation route(String method, String bucket, String key, Map<String, String> query,
                                    Map<String, String> headers) {
        for (String name : query.keySet()) {
            if (UNSUPPORTED.contains(name)) {
                return S3Operation.NOT_IMPLEMENTED;
            }
        }
        S3Operation getter = configurationGetter(method, bucket, key, query);
        if (getter != null) {
            return getter;
        }
        S3Operation op = routeKnown(method, bucket, key, query, headers);
        if (query.containsKey("versionId") && !VERSION_ID_ACTIONS.contains(op)
                || (query.containsKey("versions") || query.containsKey("version-id-marker"))
                && op != S3Operation.LIST_OBJECT_VERSIONS
                || query.containsKey("attributes") && op != S3Operation.GET_OBJECT_ATTRIBUTES) {
            return S3Operation.NOT_IMPLEMENTED;
        }
        return op;
    }

    private static S3Operation routeKnown(String method, String bucket, String key, Map<String, String> query,
                                          Map<String, String> headers) {
        if (bucket == null) {
            return method.equals("GET") ? S3Operation.LIST_BUCKETS : S3Operation.NOT_IMPLEMENTED;
        }
        boolean copy = headers.containsKey("x-amz-copy-source");
        if (key == null) {
            return switch (method) {
                case "GET" -> {
                    if (query.containsKey("location")) {
                        yield S3Operation.GET_BUCKET_LOCATION;
                    }
                    if (query.containsKey("uploads")) {
                        yield S3Operation.LIST_MULTIPART_UPLOADS;
                    }
                    if (query.containsKey("versions")) {
                        yield S3Operation.LIST_OBJECT_VERSIONS;
                    }
                    if (query.containsKey("delete") || query.containsKey("uploadId") || query.containsKey("partNumber")) {
                        yield S3Operation.NOT_IMPLEMENTED;
                    }
                    yield "2".equals(query.get("list-type")) ? S3Operation.LIST_OBJECTS_V2 : S3Operation.LIST_OBJECTS;
                }
                case "HEAD" -> S3Operation.HEAD_BUCKET;
                case "PUT" -> namesSubresource(query) ? S3Operation.NOT_IMPLEMENTED : S3Operation.CREATE_BUCKET;
                case "DELETE" -> namesSubresource(query) ? S3Operation.NOT_IMPLEMENTED : S3Operation.DELETE_BUCKET;
                case "POST" -> query.containsKey("delete") ? S3Operation.DELETE_OBJECTS
                        : isForm(headers) && !namesSubresource(query) ? S3Operation.POST_OBJECT
                        : S3Operation.NOT_IMPLEMENTED;
                default -> S3Operation.NOT_IMPLEMENTED;
            };
        }
        boolean uploadId = query.containsKey("uploadId");
        return switch (method) {
            case "GET" -> {
                if (query.containsKey("attributes")) {
                    yield uploadId ? S3Operation.NOT_IMPLEMENTED : S3Operation.GET_OBJECT_ATTRIBUTES;
                }
                yield uploadId ? S3Operation.LIST_PARTS : S3Operation.GET_OBJECT;
            }
            case "HEAD" -> S3Operation.HEAD_OBJECT;
            case "PUT" -> {
                if (uploadId && query.containsKey("partNumber")) {
                    yield copy ? S3Operation.UPLOAD_PART_COPY : S3Operation.UPLOAD_PART;
                }
                if (uploadId || query.containsKey("partNumber")) {
                    yield S3Operation.NOT_IMPLEMENTED;
                }
                yield copy ? S3Operation.COPY_OBJECT : S3Operation.PUT_OBJECT;
            }
            case "DELETE" -> uploadId ? S3Operation.ABORT_MULTIPART_UPLOAD : S3Operation.DELETE_OBJECT;
            case "POST" -> {
                if (query.containsKey("uploads")) {
                    yield S3Operation.CREATE_MULTIPART_UPLOAD;
                }
                yield uploadId ? S3Operation.COMPLETE_MULTIPART_UPLOAD : S3Operation.NOT_IMPLEMENTED;
            }
            default -> S3Operation.NOT_IMPLEMENTED;
        };
    }

    /**
     * The action for a request naming a configuration subresource ({@code ?acl}, {@code ?tagging} ...): its getter for
     * a GET that names no other subresource; PUT and DELETE of object and bucket tags, of a bucket's CORS rules, of
     * its default encryption and of its lifecycle rules;
     * NotImplemented for anything else (setting or deleting another bucket configuration, a version); null when the
     * request names none.
     */
    private static S3Operation configurationGetter(String method, String bucket, String key,
                                                   Map<String, String> query) {
        String subresource = null;
        boolean other = false;
        for (String name : query.keySet()) {
            if (BUCKET_GETTERS.containsKey(name) || OBJECT_GETTERS.containsKey(name)) {
                if (subresource != null) {
                    return S3Operation.NOT_IMPLEMENTED;
                }
                subresource = name;
            } else if (ROUTING.contains(name) && !name.equals("versionId")) {
                other = true;
            }
        }
        if (subresource == null) {
            return null;
        }
        if (other || bucket == null) {
            return S3Operation.NOT_IMPLEMENTED;
        }
        if (!method.equals("GET")) {
            return configurationWriter(method, key == null ? subresource : "object " + subresource);
        }
        S3Operation op = (key == null ? BUCKET_GETTERS : OBJECT_GETTERS).get(subresource);
        return op == null ? S3Operation.NOT_IMPLEMENTED : op;
    }

    /**
     * PUT or DELETE of a configuration Coffer stores: object and bucket tags, a bucket's CORS rules and encryption,
     * bucket and object ACLs (PUT), a bucket's public access block.
     */
    private static S3Operation configurationWriter(String method, String subresource) {
        boolean put = method.equals("PUT");
        if (!put && !method.equals("DELETE")) {
            return S3Operation.NOT_IMPLEMENTED;
        }
        return switch (subresource) {
            case "object tagging" -> put ? S3Operation.PUT_OBJECT_TAGGING : S3Operation.DELETE_OBJECT_TAGGING;
            case "tagging" -> put ? S3Operation.PUT_BUCKET_TAGGING : S3Operation.DELETE_BUCKET_TAGGING;
            case "cors" -> put ? S3Operation.PUT_BUCKET_CORS : S3Operation.DELETE_BUCKET_CORS;
            case "encryption" -> put ? S3Operation.PUT_BUCKET_ENCRYPTION : S3Operation.DELETE_BUCKET_ENCRYPTION;
            case "versioning" -> put ? S3Operation.PUT_BUCKET_VERSIONING : S3Operation.NOT_IMPLEMENTED;
            case "acl" -> put ? S3Operation.PUT_BUCKET_ACL : S3Operation.NOT_IMPLEMENTED;
            case "object acl" -> put ? S3Operation.PUT_OBJECT_ACL : S3Operation.NOT_IMPLEMENTED;
            case "publicAccessBlock" -> put ? S3Operation.PUT_PUBLIC_ACCESS_BLOCK
                    : S3Operation.DELETE_PUBLIC_ACCESS_BLOCK;
            case "lifecycle" -> put ? S3Operation.PUT_BUCKET_LIFECYCLE_CONFIGURATION
                    : S3Operation.DELETE_BUCKET_LIFECYCLE;
            case "object-lock" -> put ? S3Operation.PUT_OBJECT_LOCK_CONFIGURATION : S3Operation.NOT_IMPLEMENTED;
            case "object retention" -> put ? S3Operation.PUT_OBJECT_RETENTION : S3Operation.NOT_IMPLEMENTED;
            case "object legal-hold" -> put ? S3Operation.PUT_OBJECT_LEGAL_HOLD : S3Operation.NOT_IMPLEMENTED;
            default -> S3Operation.NOT_IMPLEMENTED;
        };
    }

    /** A browser form upload's body type (POST Object). */
    private static boolean isForm(Map<String, String> headers) {
        String type = headers.get("content-type");
        return type != null && type.trim().toLowerCase(Locale.ROOT).startsWith("multipart/form-data");
    }

    private static boolean namesSubresource(Map<String, String> query) {
        for (String name : query.keySet()) {
            if (ROUTING.contains(name)) {
                return true;
            }
        }
        return false;
    }
}
