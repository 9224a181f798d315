package io.coffer.por.blob;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The setup the PoR pack-store tests share: a temporary directory, the store a test opens there
 * ({@code f = PorStoreFixture.open(dir, ...)}), closed after each test.
 */
abstract class WithPorStore {
    @TempDir
    Path dir;

    PorStoreFixture f;

    @AfterEach
    void closeStore() throws IOException {
        if (f != null) {
            f.close();
        }
    }
}
