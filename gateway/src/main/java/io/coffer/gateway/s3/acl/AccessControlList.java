package io.coffer.gateway.s3.acl;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The grants of a bucket or object: to its owner (the tenant that owns the bucket, the only owner Coffer has) and to
 * S3's two public groups. Grants to other accounts or e-mail addresses are refused where they are parsed
 * ({@link AclXml}, {@link AclHeaders}). Stored as {@link #encode()}: {@code GRANTEE:PERMISSION} pairs in a fixed order.
 */
public record AccessControlList(Set<Grant> grants) {
    /** The owner's FULL_CONTROL: what every bucket and object has until given another ACL. */
    public static final AccessControlList PRIVATE = new AccessControlList(
            Set.of(new Grant(Grantee.OWNER, Permission.FULL_CONTROL)));

    public AccessControlList {
        grants = Collections.unmodifiableSet(new TreeSet<>(grants));
    }

    /** Who a grant is to. */
    public enum Grantee {
        OWNER(null),
        ALL_USERS("http://acs.amazonaws.com/groups/global/AllUsers"),
        AUTHENTICATED_USERS("http://acs.amazonaws.com/groups/global/AuthenticatedUsers");

        private final String uri;

        Grantee(String uri) {
            this.uri = uri;
        }

        /** The group's URI, null for the owner. */
        public String uri() {
            return uri;
        }
    }

    /** S3's ACL permissions. */
    public enum Permission { READ, WRITE, READ_ACP, WRITE_ACP, FULL_CONTROL }

    public record Grant(Grantee grantee, Permission permission) implements Comparable<Grant> {
        @Override
        public int compareTo(Grant o) {
            int c = grantee.compareTo(o.grantee);
            return c != 0 ? c : permission.compareTo(o.permission);
        }
    }

    /**
     * A canned ACL by its S3 name ({@code x-amz-acl}). {@code bucket-owner-read} and {@code bucket-owner-full-control}
     * are the owner's FULL_CONTROL: the bucket owner owns every object. {@code aws-exec-read} and
     * {@code log-delivery-write} name AWS services Coffer does not have: NotImplemented. Anything else:
     * InvalidArgument.
     */
    public static AccessControlList canned(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        Set<Grant> g = new TreeSet<>(PRIVATE.grants);
        switch (n) {
            case "private", "bucket-owner-read", "bucket-owner-full-control" -> {
            }
            case "public-read" -> g.add(new Grant(Grantee.ALL_USERS, Permission.READ));
            case "public-read-write" -> {
                g.add(new Grant(Grantee.ALL_USERS, Permission.READ));
                g.add(new Grant(Grantee.ALL_USERS, Permission.WRITE));
            }
            case "authenticated-read" -> g.add(new Grant(Grantee.AUTHENTICATED_USERS, Permission.READ));
            case "aws-exec-read", "log-delivery-write" -> throw new S3Exception(S3ErrorCode.NOT_IMPLEMENTED,
                    "The canned ACL " + n + " names an AWS service this gateway does not have.");
            default -> throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Invalid canned ACL: " + name.trim());
        }
        return new AccessControlList(g);
    }

    /** True when {@code grantee} holds {@code permission}, directly or through FULL_CONTROL. */
    public boolean allows(Grantee grantee, Permission permission) {
        return grants.contains(new Grant(grantee, permission))
                || grants.contains(new Grant(grantee, Permission.FULL_CONTROL));
    }

    /** True when a grant is to a public group: what S3's Block Public Access calls a public ACL. */
    public boolean isPublic() {
        return grants.stream().anyMatch(g -> g.grantee() != Grantee.OWNER);
    }

    /** {@code GRANTEE:PERMISSION} pairs joined with commas, in a fixed order. */
    public String encode() {
        StringBuilder b = new StringBuilder();
        for (Grant g : grants) {
            if (b.length() > 0) {
                b.append(',');
            }
            b.append(g.grantee().name()).append(':').append(g.permission().name());
        }
        return b.toString();
    }

    public byte[] encodeBytes() {
        return encode().getBytes(StandardCharsets.UTF_8);
    }

    /** Reads what {@link #encode()} wrote; a malformed record is an IllegalStateException (the gateway wrote it). */
    public static AccessControlList decode(String s) {
        Set<Grant> g = new TreeSet<>();
        if (!s.isEmpty()) {
            for (String pair : s.split(",", -1)) {
                int colon = pair.indexOf(':');
                if (colon < 0) {
                    throw new IllegalStateException("malformed stored ACL");
                }
                try {
                    g.add(new Grant(Grantee.valueOf(pair.substring(0, colon)),
                            Permission.valueOf(pair.substring(colon + 1))));
                } catch (IllegalArgumentException e) {
                    throw new IllegalStateException("malformed stored ACL", e);
                }
            }
        }
        return new AccessControlList(g);
    }

    public static AccessControlList decode(byte[] b) {
        return decode(new String(b, StandardCharsets.UTF_8));
    }
}
