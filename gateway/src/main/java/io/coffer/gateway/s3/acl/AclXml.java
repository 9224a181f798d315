package io.coffer.gateway.s3.acl;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.acl.AccessControlList.Grant;
import io.coffer.gateway.s3.acl.AccessControlList.Grantee;
import io.coffer.gateway.s3.acl.AccessControlList.Permission;
import io.coffer.gateway.xml.XmlElement;
import io.coffer.gateway.xml.XmlRequestReader;
import io.coffer.gateway.xml.XmlResponseWriter;
import java.io.IOException;
import java.io.InputStream;
import java.util.Set;
import java.util.TreeSet;

/**
 * S3's {@code AccessControlPolicy} document in both directions. A grant names the owner (CanonicalUser with the
 * owner's ID), AllUsers or AuthenticatedUsers; another account's ID, an e-mail address or the LogDelivery group is
 * NotImplemented (Coffer has no other accounts to grant to), an unknown group URI InvalidArgument, a grant without a
 * grantee or with an unknown permission MalformedACLError, an Owner other than the bucket's owner AccessDenied.
 */
public final class AclXml {
    /** 100 grants (S3's limit) of five elements each, and the owner. */
    private static final XmlRequestReader XML = new XmlRequestReader(64 * 1024, 600);
    private static final int MAX_GRANTS = 100;

    private AclXml() {
    }

    /** The policy document for {@code acl} of a resource owned by {@code owner}. */
    public static byte[] render(String owner, AccessControlList acl) {
        XmlResponseWriter w = XmlResponseWriter.document("AccessControlPolicy")
                .start("Owner").element("ID", owner).element("DisplayName", owner).end()
                .start("AccessControlList");
        for (Grant g : acl.grants()) {
            w.start("Grant");
            if (g.grantee() == Grantee.OWNER) {
                w.startTyped("Grantee", "CanonicalUser").element("ID", owner).element("DisplayName", owner).end();
            } else {
                w.startTyped("Grantee", "Group").element("URI", g.grantee().uri()).end();
            }
            w.element("Permission", g.permission().name()).end();
        }
        return w.end().toBytes();
    }

    /** Reads a request body (at most 64 KiB) as a policy for a resource owned by {@code owner}. */
    public static AccessControlList read(InputStream body, String owner) throws IOException {
        return parse(XML.readBytes(body), owner);
    }

    public static AccessControlList parse(byte[] xml, String owner) {
        XmlElement policy = XML.parse(xml, "AccessControlPolicy");
        for (XmlElement o : policy.all("Owner")) {
            String id = o.childText("ID");
            if (id != null && !id.trim().equals(owner)) {
                throw new S3Exception(S3ErrorCode.ACCESS_DENIED, "The Owner in the policy is not the owner.");
            }
        }
        Set<Grant> grants = new TreeSet<>();
        int n = 0;
        for (XmlElement list : policy.all("AccessControlList")) {
            for (XmlElement g : list.all("Grant")) {
                if (++n > MAX_GRANTS) {
                    throw new S3Exception(S3ErrorCode.MALFORMED_ACL_ERROR, "An ACL holds at most 100 grants.");
                }
                grants.add(grant(g, owner));
            }
        }
        return new AccessControlList(grants);
    }

    private static Grant grant(XmlElement g, String owner) {
        XmlElement grantee = g.all("Grantee").stream().findFirst().orElseThrow(
                () -> new S3Exception(S3ErrorCode.MALFORMED_ACL_ERROR, "A grant names no grantee."));
        String permission = g.childText("Permission");
        if (permission == null) {
            throw new S3Exception(S3ErrorCode.MALFORMED_ACL_ERROR, "A grant names no permission.");
        }
        Permission p;
        try {
            p = Permission.valueOf(permission.trim());
        } catch (IllegalArgumentException e) {
            throw new S3Exception(S3ErrorCode.MALFORMED_ACL_ERROR, "Unknown permission " + permission.trim() + ".");
        }
        String id = grantee.childText("ID");
        String uri = grantee.childText("URI");
        String email = grantee.childText("EmailAddress");
        if (id != null) {
            return new Grant(Grantees.byId(id.trim(), owner), p);
        }
        if (uri != null) {
            return new Grant(Grantees.byUri(uri.trim()), p);
        }
        if (email != null) {
            throw Grantees.emailRefused();
        }
        throw new S3Exception(S3ErrorCode.MALFORMED_ACL_ERROR, "A grantee names no ID, URI or EmailAddress.");
    }
}
