package io.coffer.gateway.s3.acl;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.acl.AccessControlList.Grantee;

/** Grantees as ACL documents and grant headers name them: the one place their refusals are worded. */
final class Grantees {
    private static final String LOG_DELIVERY = "http://acs.amazonaws.com/groups/s3/LogDelivery";

    private Grantees() {
    }

    /** The owner by canonical ID; another account's ID is NotImplemented. */
    static Grantee byId(String id, String owner) {
        if (id.equals(owner)) {
            return Grantee.OWNER;
        }
        throw new S3Exception(S3ErrorCode.NOT_IMPLEMENTED, "Grants to another account (" + id
                + ") are not offered by this gateway: grant to the owner, AllUsers or AuthenticatedUsers.");
    }

    /** A group by URI: AllUsers, AuthenticatedUsers; LogDelivery NotImplemented, anything else InvalidArgument. */
    static Grantee byUri(String uri) {
        for (Grantee g : Grantee.values()) {
            if (uri.equals(g.uri())) {
                return g;
            }
        }
        if (uri.equals(LOG_DELIVERY)) {
            throw new S3Exception(S3ErrorCode.NOT_IMPLEMENTED, "Grants to the LogDelivery group are not offered by"
                    + " this gateway (it has no server access logging).");
        }
        throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Invalid group URI: " + uri);
    }

    static S3Exception emailRefused() {
        return new S3Exception(S3ErrorCode.NOT_IMPLEMENTED,
                "Grants by e-mail address are not offered by this gateway.");
    }
}
