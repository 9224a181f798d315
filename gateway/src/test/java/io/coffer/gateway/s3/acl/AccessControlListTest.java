package io.coffer.gateway.s3.acl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.acl.AccessControlList.Grantee;
import io.coffer.gateway.s3.acl.AccessControlList.Permission;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Canned ACLs as S3 defines their grants, the stored encoding, and what counts as public. */
class AccessControlListTest {

    @Test
    void cannedAclsGrantWhatS3Defines() {
        assertThat(AccessControlList.canned("private")).isEqualTo(AccessControlList.PRIVATE);
        assertThat(AccessControlList.canned("bucket-owner-full-control")).isEqualTo(AccessControlList.PRIVATE);
        assertThat(AccessControlList.canned("bucket-owner-read")).isEqualTo(AccessControlList.PRIVATE);

        AccessControlList publicRead = AccessControlList.canned(" Public-Read ");
        assertThat(publicRead.allows(Grantee.ALL_USERS, Permission.READ)).isTrue();
        assertThat(publicRead.allows(Grantee.ALL_USERS, Permission.WRITE)).isFalse();
        assertThat(publicRead.allows(Grantee.OWNER, Permission.WRITE_ACP)).isTrue();
        assertThat(publicRead.isPublic()).isTrue();

        AccessControlList readWrite = AccessControlList.canned("public-read-write");
        assertThat(readWrite.allows(Grantee.ALL_USERS, Permission.WRITE)).isTrue();

        AccessControlList authenticated = AccessControlList.canned("authenticated-read");
        assertThat(authenticated.allows(Grantee.AUTHENTICATED_USERS, Permission.READ)).isTrue();
        assertThat(authenticated.allows(Grantee.ALL_USERS, Permission.READ)).isFalse();
        assertThat(authenticated.isPublic()).isTrue();
        assertThat(AccessControlList.PRIVATE.isPublic()).isFalse();
    }

    @Test
    void unknownCannedAclIsInvalidArgumentAndAwsServiceOnesAreNotImplemented() {
        assertThatThrownBy(() -> AccessControlList.canned("world-readable")).isInstanceOfSatisfying(
                S3Exception.class, e -> assertThat(e.error()).isEqualTo(S3ErrorCode.INVALID_ARGUMENT));
        assertThatThrownBy(() -> AccessControlList.canned("log-delivery-write")).isInstanceOfSatisfying(
                S3Exception.class, e -> assertThat(e.error()).isEqualTo(S3ErrorCode.NOT_IMPLEMENTED));
    }

    @Test
    void encodingRoundTripsAndRefusesWhatTheGatewayNeverWrote() {
        AccessControlList acl = AccessControlList.canned("public-read-write");
        assertThat(acl.encode()).isEqualTo("OWNER:FULL_CONTROL,ALL_USERS:READ,ALL_USERS:WRITE");
        assertThat(AccessControlList.decode(acl.encodeBytes())).isEqualTo(acl);
        assertThat(AccessControlList.decode("")).isEqualTo(new AccessControlList(Set.of()));
        assertThatThrownBy(() -> AccessControlList.decode("ALL_USERS")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> AccessControlList.decode("SOMEONE:READ")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void fullControlImpliesEveryPermission() {
        AccessControlList acl = new AccessControlList(Set.of(
                new AccessControlList.Grant(Grantee.AUTHENTICATED_USERS, Permission.FULL_CONTROL)));
        for (Permission p : Permission.values()) {
            assertThat(acl.allows(Grantee.AUTHENTICATED_USERS, p)).isTrue();
            assertThat(acl.allows(Grantee.OWNER, p)).isFalse();
        }
    }
}
