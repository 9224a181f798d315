package io.coffer.gateway.s3.acl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.acl.AccessControlList.Grant;
import io.coffer.gateway.s3.acl.AccessControlList.Grantee;
import io.coffer.gateway.s3.acl.AccessControlList.Permission;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** AccessControlPolicy documents: what is read, what is refused with which error, and the rendering. */
class AclXmlTest {
    static final String XSI = "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"";

    static byte[] policy(String owner, String... grants) {
        StringBuilder b = new StringBuilder("<AccessControlPolicy xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">");
        if (owner != null) {
            b.append("<Owner><ID>").append(owner).append("</ID></Owner>");
        }
        b.append("<AccessControlList>");
        for (String g : grants) {
            b.append(g);
        }
        return b.append("</AccessControlList></AccessControlPolicy>").toString().getBytes(StandardCharsets.UTF_8);
    }

    static String user(String id, String permission) {
        return "<Grant><Grantee " + XSI + " xsi:type=\"CanonicalUser\"><ID>" + id + "</ID></Grantee><Permission>"
                + permission + "</Permission></Grant>";
    }

    static String group(String uri, String permission) {
        return "<Grant><Grantee " + XSI + " xsi:type=\"Group\"><URI>" + uri + "</URI></Grantee><Permission>"
                + permission + "</Permission></Grant>";
    }

    @Test
    void grantsToTheOwnerAndThePublicGroupsAreRead() {
        AccessControlList acl = AclXml.parse(policy("tenant", user("tenant", "FULL_CONTROL"),
                group(Grantee.ALL_USERS.uri(), "READ"), group(Grantee.AUTHENTICATED_USERS.uri(), "WRITE_ACP")),
                "tenant");
        assertThat(acl.grants()).containsExactlyInAnyOrder(new Grant(Grantee.OWNER, Permission.FULL_CONTROL),
                new Grant(Grantee.ALL_USERS, Permission.READ),
                new Grant(Grantee.AUTHENTICATED_USERS, Permission.WRITE_ACP));
    }

    @Test
    void renderedPolicyParsesBackToTheSameGrants() {
        AccessControlList acl = AccessControlList.canned("public-read-write");
        String xml = new String(AclXml.render("tenant", acl), StandardCharsets.UTF_8);
        assertThat(xml).contains("<ID>tenant</ID>").contains("xsi:type=\"Group\"")
                .contains("<URI>http://acs.amazonaws.com/groups/global/AllUsers</URI>");
        assertThat(AclXml.parse(AclXml.render("tenant", acl), "tenant")).isEqualTo(acl);
    }

    @Test
    void otherAccountsEmailsAndLogDeliveryAreNotImplemented() {
        assertError(policy(null, user("someone-else", "READ")), S3ErrorCode.NOT_IMPLEMENTED);
        assertError(policy(null, "<Grant><Grantee " + XSI + " xsi:type=\"AmazonCustomerByEmail\"><EmailAddress>"
                + "a@example.com</EmailAddress></Grantee><Permission>READ</Permission></Grant>"),
                S3ErrorCode.NOT_IMPLEMENTED);
        assertError(policy(null, group("http://acs.amazonaws.com/groups/s3/LogDelivery", "WRITE")),
                S3ErrorCode.NOT_IMPLEMENTED);
    }

    @Test
    void malformedPoliciesGetS3Errors() {
        assertError(policy(null, group("http://example.com/everyone", "READ")), S3ErrorCode.INVALID_ARGUMENT);
        assertError(policy(null, user("tenant", "READ_EVERYTHING")), S3ErrorCode.MALFORMED_ACL_ERROR);
        assertError(policy(null, "<Grant><Permission>READ</Permission></Grant>"), S3ErrorCode.MALFORMED_ACL_ERROR);
        assertError(policy(null, "<Grant><Grantee><ID>tenant</ID></Grantee></Grant>"), S3ErrorCode.MALFORMED_ACL_ERROR);
        assertError(policy(null, "<Grant><Grantee><DisplayName>x</DisplayName></Grantee><Permission>READ"
                + "</Permission></Grant>"), S3ErrorCode.MALFORMED_ACL_ERROR);
        assertError(policy("intruder", user("tenant", "READ")), S3ErrorCode.ACCESS_DENIED);
        assertError("<AccessControlPolicy><Owner>".getBytes(StandardCharsets.UTF_8), S3ErrorCode.MALFORMED_XML);
        assertError("<Tagging/>".getBytes(StandardCharsets.UTF_8), S3ErrorCode.MALFORMED_XML);
        assertError(("<!DOCTYPE a [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><AccessControlPolicy>&e;"
                + "</AccessControlPolicy>").getBytes(StandardCharsets.UTF_8), S3ErrorCode.MALFORMED_XML);
    }

    @Test
    void moreThanAHundredGrantsAreRefused() {
        String[] grants = new String[101];
        Arrays.fill(grants, user("tenant", "READ"));
        assertError(policy(null, grants), S3ErrorCode.MALFORMED_ACL_ERROR);
        assertThat(AclXml.parse(policy(null, Arrays.copyOf(grants, 100)), "tenant").grants())
                .isEqualTo(Set.of(new Grant(Grantee.OWNER, Permission.READ)));
    }

    static void assertError(byte[] xml, S3ErrorCode code) {
        assertThatThrownBy(() -> AclXml.parse(xml, "tenant")).isInstanceOfSatisfying(S3Exception.class,
                e -> assertThat(e.error()).isEqualTo(code));
    }
}
