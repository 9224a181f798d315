package io.coffer.gateway.s3.acl;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.S3Request;
import io.coffer.gateway.s3.acl.AccessControlList.Grant;
import io.coffer.gateway.s3.acl.AccessControlList.Permission;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The ACL a request sets with headers: a canned {@code x-amz-acl}, or {@code x-amz-grant-*} headers whose values are
 * comma-separated {@code id="..."}, {@code uri="..."} or {@code emailAddress="..."} grantees (refused as
 * {@link AclXml} refuses them). Both at once is InvalidRequest, as in S3.
 */
public final class AclHeaders {
    public static final String CANNED = "x-amz-acl";

    private AclHeaders() {
    }

    /** True when the request names an ACL by header. */
    public static boolean present(S3Request r) {
        if (r.header(CANNED) != null) {
            return true;
        }
        for (Permission p : Permission.values()) {
            if (r.header(headerName(p)) != null) {
                return true;
            }
        }
        return false;
    }

    /** The ACL the headers name, or null when they name none; {@code owner} is the resource's owner. */
    public static AccessControlList of(S3Request r, String owner) {
        String canned = r.header(CANNED);
        Set<Grant> grants = new TreeSet<>();
        for (Permission p : Permission.values()) {
            String v = r.header(headerName(p));
            if (v != null) {
                for (String grantee : v.split(",", -1)) {
                    grants.add(new Grant(grantee(grantee.trim(), owner), p));
                }
            }
        }
        if (canned != null && !grants.isEmpty()) {
            throw new S3Exception(S3ErrorCode.INVALID_REQUEST,
                    "Specifying both Canned ACLs and Header Grants is not allowed");
        }
        if (canned != null) {
            return AccessControlList.canned(canned);
        }
        return grants.isEmpty() ? null : new AccessControlList(grants);
    }

    private static String headerName(Permission p) {
        return "x-amz-grant-" + p.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static AccessControlList.Grantee grantee(String spec, String owner) {
        int eq = spec.indexOf('=');
        if (eq < 0) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Invalid grant: " + spec);
        }
        String type = spec.substring(0, eq).trim();
        String value = spec.substring(eq + 1).trim();
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
            value = value.substring(1, value.length() - 1);
        }
        return switch (type.toLowerCase(Locale.ROOT)) {
            case "id" -> Grantees.byId(value, owner);
            case "uri" -> Grantees.byUri(value);
            case "emailaddress" -> throw Grantees.emailRefused();
            default -> throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Invalid grantee type: " + type);
        };
    }
}
