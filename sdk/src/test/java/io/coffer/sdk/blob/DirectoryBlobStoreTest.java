package io.coffer.sdk.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.EOFException;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The contract test against {@link DirectoryBlobStore}, plus its on-disk layout, temp files and permissions. */
class DirectoryBlobStoreTest extends BlobStoreContractTest {

    @TempDir
    Path dir;

    private Path root() {
        return dir.resolve("blobs");
    }

    @Override
    protected BlobStore createStore() throws IOException {
        return new DirectoryBlobStore(root());
    }

    @Test
    void blobsAreFilesNamedAfterTheirNames() throws IOException {
        store.put("p/ab12", BlobContent.of(new byte[] {1, 2}));

        assertThat(Files.readAllBytes(root().resolve("p").resolve("ab12"))).containsExactly(1, 2);
        assertThat(store.describe()).isEqualTo("directory:" + root().toAbsolutePath());
    }

    @Test
    void aRangedReadIntoOfSeveralReadSlicesFillsExactlyTheCallersRange() throws IOException {
        // longer than several of the store's read slices, at odd offsets in the blob and in the array
        byte[] data = new byte[(3 << 20) + 777];
        new Random(23).nextBytes(data);
        store.put("p/big", BlobContent.of(data));
        byte[] into = new byte[(2 << 20) + 100];
        Arrays.fill(into, (byte) 7);
        int length = (2 << 20) + 13;

        store.readInto("p/big", 333_333, into, 41, length);

        assertThat(Arrays.copyOfRange(into, 41, 41 + length)).isEqualTo(Arrays.copyOfRange(data, 333_333,
                333_333 + length));
        assertThat(Arrays.copyOfRange(into, 0, 41)).containsOnly(7);
        assertThat(Arrays.copyOfRange(into, 41 + length, into.length)).containsOnly(7);
        assertThatThrownBy(() -> store.readInto("p/big", data.length - 10, into, 0, 1 << 20))
                .isInstanceOf(EOFException.class);
    }

    @Test
    void leftoverTempFilesAreInvisibleAndStaleOnesRemovedOnOpen() throws IOException {
        Path temp = root().resolve(DirectoryBlobStore.TEMP_DIR);
        Path stale = Files.write(temp.resolve("put-1.part"), new byte[] {1});
        Path fresh = Files.write(temp.resolve("put-2.part"), new byte[] {2});
        Files.setLastModifiedTime(stale, FileTime.from(
                Instant.now().minus(DirectoryBlobStore.STALE_TEMP_AGE).minus(Duration.ofMinutes(1))));

        assertThat(names("")).isEmpty();
        assertThat(names(".")).isEmpty();
        assertThatThrownBy(() -> store.get(".tmp/put-2.part", 0, -1)).isInstanceOf(IllegalArgumentException.class);

        try (DirectoryBlobStore reopened = new DirectoryBlobStore(root())) {
            assertThat(stale).doesNotExist();
            assertThat(fresh).exists();
            assertThat(reopened.list("").toList()).isEmpty();
        }
    }

    @Test
    void failedPutLeavesNoFileBehind() throws IOException {
        assertThatThrownBy(() -> store.put("p/x/fail", TestContents.failingAfter(1 << 20, 1000)))
                .isInstanceOf(IOException.class);

        assertThat(regularFiles()).isEmpty();
    }

    @Test
    void filesAndDirectoriesArePrivate() throws IOException {
        Assumptions.assumeTrue(
                FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
        store.put("p/q/secret", BlobContent.of(new byte[] {1}));

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(root().resolve("p/q/secret"))))
                .isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(root().resolve("p/q"))))
                .isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(root().resolve("p"))))
                .isEqualTo("rwx------");
    }

    @Test
    void namesAFilesystemCannotMapAreRejected() {
        for (String bad : List.of("a//b", "a/", "./a", "a/./b", ".tmp/x", ".tmp", "a/" + "b".repeat(256))) {
            assertThatThrownBy(() -> store.put(bad, BlobContent.of(new byte[1])))
                    .as("put %s", bad).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> store.head(bad))
                    .as("head %s", bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void aNameCannotBeBothABlobAndADirectory() throws IOException {
        store.put("p/a", BlobContent.of(new byte[] {1}));
        store.put("q/a/b", BlobContent.of(new byte[] {2}));

        assertThatThrownBy(() -> store.put("p/a/b", BlobContent.of(new byte[] {3}))).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> store.put("q/a", BlobContent.of(new byte[] {4}))).isInstanceOf(IOException.class);
        assertThat(store.head("q/a")).isEmpty();
        assertThatThrownBy(() -> store.get("q/a", 0, -1)).isInstanceOf(BlobNotFoundException.class);
        store.delete("q/a");
        assertThat(names("")).containsExactly("p/a", "q/a/b");
        assertThat(regularFiles()).hasSize(2);
    }

    @Test
    void preparedFoldersExistArePrivateHoldNoBlobsAndPreparingAgainChangesNothing() throws IOException {
        List<String> folders = List.of("p/00/", "p/ff/", "m/0a/", "b/");
        store.prepareFolders(folders);
        store.prepareFolders(folders);

        for (String f : folders) {
            Path folder = root().resolve(f);
            assertThat(folder).isDirectory();
            if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(folder))).isEqualTo("rwx------");
            }
        }
        assertThat(names("")).isEmpty();
        store.put("p/00/x", BlobContent.of(new byte[] {7}));
        assertThat(names("p/")).containsExactly("p/00/x");
    }

    @Test
    void preparingAFolderThatIsABlobOrAnInvalidPrefixFails() throws IOException {
        store.put("p/a", BlobContent.of(new byte[] {1}));

        assertThatThrownBy(() -> store.prepareFolders(List.of("p/a/"))).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> store.prepareFolders(List.of("p/b"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.prepareFolders(List.of(".tmp/x/")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(names("")).containsExactly("p/a");
    }

    private List<Path> regularFiles() throws IOException {
        try (Stream<Path> paths = Files.walk(root())) {
            return paths.filter(Files::isRegularFile).collect(Collectors.toList());
        }
    }
}
