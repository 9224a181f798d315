package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.CopySource;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.testing.TestData;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every ETag condition the engine checks (a write's If-Match before the body is read, the copy source's) matches as
 * the commit does: {@code *} is any object, a list names any of its tags.
 */
class ETagConditionsTest {
    @TempDir
    Path dir;
    private TestEngine e;
    private ObjectInfo existing;

    @BeforeEach
    void open() throws IOException {
        e = TestEngine.open(dir);
        e.coffer.createBucket("bkt", "t", null);
        existing = e.coffer.putObject(PutObjectRequest.of("bkt", "k", 100), TestData.stream(1, 100));
    }

    @AfterEach
    void close() {
        e.close();
    }

    @Test
    void wildcardIfMatchOnAPutMatchesTheCurrentObject() {
        ObjectInfo replaced = e.coffer.putObject(PutObjectRequest.of("bkt", "k", 10)
                .withPrecondition(new Precondition("*", false)), TestData.stream(2, 10));
        assertThat(e.coffer.headObject("bkt", "k")).isEqualTo(replaced);
        assertThatThrownBy(() -> e.coffer.putObject(PutObjectRequest.of("bkt", "absent", 10)
                .withPrecondition(new Precondition("*", false)), TestData.stream(2, 10)))
                .isInstanceOfSatisfying(CofferException.class, x -> assertThat(x.code()).isEqualTo(
                        ErrorCode.NO_SUCH_KEY));
    }

    @Test
    void copySourceConditionsTakeTheWildcardAndLists() {
        String tag = "\"" + existing.etag() + "\"";
        e.coffer.copyObject(new CopySource("bkt", "k", "*", null, null, null), "bkt", "c1", null, null);
        e.coffer.copyObject(new CopySource("bkt", "k", "\"other\", " + tag, null, null, null), "bkt", "c2", null,
                null);
        assertThat(e.coffer.headObject("bkt", "c2").etag()).isEqualTo(existing.etag());
        for (CopySource refused : new CopySource[] {new CopySource("bkt", "k", null, "*", null, null),
            new CopySource("bkt", "k", null, "\"other\", " + tag, null, null)}) {
            assertThatThrownBy(() -> e.coffer.copyObject(refused, "bkt", "c3", null, null))
                    .isInstanceOfSatisfying(CofferException.class, x -> assertThat(x.code()).isEqualTo(
                            ErrorCode.PRECONDITION_FAILED));
        }
    }
}
