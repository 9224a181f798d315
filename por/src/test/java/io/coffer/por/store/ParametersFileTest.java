package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.net.ServerParameters;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The parameters file fixes a store's parameters and the byte order of its code vectors. */
class ParametersFileTest {
    private static final ServerParameters PARAMS = new ServerParameters(6, 2, 4096);

    @TempDir
    Path dir;

    @Test
    void aNewStoreRecordsThePlatformsByteOrderAndKeepsIt() throws IOException {
        Path file = dir.resolve("parameters");
        ParametersFile.Stored created = ParametersFile.fix(file, PARAMS);
        assertThat(created).isEqualTo(new ParametersFile.Stored(PARAMS, ByteOrder.nativeOrder(), true));
        String name = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? "little" : "big";
        assertThat(Files.readString(file)).contains("vectorOrder=" + name).contains("hLayout=deamortized");
        assertThat(ParametersFile.fix(file, null)).isEqualTo(created);
        assertThat(ParametersFile.fix(file, PARAMS)).isEqualTo(created);
    }

    @Test
    void aStoreCreatedBeforeTheOrderWasRecordedIsBigEndian() throws IOException {
        Path file = dir.resolve("parameters");
        Files.writeString(file, "k=6\nbatch=2\nblockBytes=4096\n", StandardCharsets.US_ASCII);
        assertThat(ParametersFile.fix(file, PARAMS)).isEqualTo(new ParametersFile.Stored(PARAMS,
                ByteOrder.BIG_ENDIAN, false));
        assertThat(Files.readString(file)).doesNotContain("vectorOrder"); // the file is left as it was
        ParametersFile.markDeamortized(file);
        assertThat(ParametersFile.fix(file, PARAMS)).as("an older store once H is emptied")
                .isEqualTo(new ParametersFile.Stored(PARAMS, ByteOrder.BIG_ENDIAN, true));
        Files.writeString(file, "k=6\nbatch=2\nblockBytes=4096\nvectorOrder=little\n", StandardCharsets.US_ASCII);
        assertThat(ParametersFile.fix(file, null).vectorOrder()).isEqualTo(ByteOrder.LITTLE_ENDIAN);
    }

    @Test
    void aStartMayAskForTheCapacityTheStoreWasCreatedWithAfterAShrinkBelowIt() throws IOException {
        Path file = dir.resolve("parameters");
        ParametersFile.fix(file, PARAMS);
        assertThat(Files.readString(file)).contains("createdK=6");
        ParametersFile.grow(file, 4); // a shrink
        assertThat(ParametersFile.fix(file, PARAMS).parameters()).isEqualTo(new ServerParameters(4, 2, 4096));
        ParametersFile.grow(file, 8);
        assertThat(ParametersFile.fix(file, new ServerParameters(8, 2, 4096)).parameters().k()).isEqualTo(8);
        assertThat(Files.readString(file)).contains("createdK=6").doesNotContain("createdK=8");
        assertThatThrownBy(() -> ParametersFile.fix(file, new ServerParameters(9, 2, 4096)))
                .isInstanceOf(IOException.class).hasMessageContaining("was created with k = 6");
    }

    @Test
    void aStoreFromBeforeCreatedKWasRecordedGetsTheCapacityItHadBeforeItsFirstShrink() throws IOException {
        Path file = dir.resolve("parameters");
        Files.writeString(file, "k=6\nbatch=2\nblockBytes=4096\n", StandardCharsets.US_ASCII);
        ParametersFile.grow(file, 7); // a grow records nothing: the k it had is no larger than the current one
        assertThat(Files.readString(file)).doesNotContain("createdK");
        ParametersFile.grow(file, 5);
        assertThat(Files.readString(file)).contains("createdK=7");
        assertThat(ParametersFile.fix(file, PARAMS).parameters().k()).isEqualTo(5);
        ParametersFile.grow(file, 3);
        assertThat(Files.readString(file)).contains("createdK=7").doesNotContain("createdK=5");
        assertThatThrownBy(() -> ParametersFile.fix(file, new ServerParameters(8, 2, 4096)))
                .isInstanceOf(IOException.class).hasMessageContaining("was created with k = 7");
    }

    @Test
    void anUnknownByteOrderOrLayoutIsRefused() throws IOException {
        Path file = dir.resolve("parameters");
        Files.writeString(file, "k=6\nbatch=2\nblockBytes=4096\nvectorOrder=middle\n", StandardCharsets.US_ASCII);
        assertThatThrownBy(() -> ParametersFile.fix(file, PARAMS)).isInstanceOf(IOException.class)
                .hasMessageContaining("unknown vector byte order: middle");
        Files.writeString(file, "k=6\nbatch=2\nblockBytes=4096\nhLayout=spiral\n", StandardCharsets.US_ASCII);
        assertThatThrownBy(() -> ParametersFile.fix(file, PARAMS)).isInstanceOf(IOException.class)
                .hasMessageContaining("unknown layout of H: spiral");
    }
}
