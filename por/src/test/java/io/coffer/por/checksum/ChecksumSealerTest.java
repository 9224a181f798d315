package io.coffer.por.checksum;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.code.Part;
import java.security.SecureRandom;
import org.junit.jupiter.api.Test;

class ChecksumSealerTest {
    private final ChecksumSealer sealer = new ChecksumSealer(ChecksumKeyTest.bytes(32, 1), new SecureRandom());
    private final Checksum checksum = Checksum.of(new int[] {1, 2, 3, 4, 5});

    @Test
    void aSealedChecksumOpensAtItsAddressAndTime() {
        BlockAddress at = BlockAddress.h(3, Part.Y, 5);
        byte[] sealed = sealer.seal(at, 40, checksum);
        assertThat(sealed).hasSize(ChecksumSealer.SEALED_BYTES);
        assertThat(sealer.open(at, 40, sealed)).isEqualTo(checksum);
        byte[] u = sealer.sealU(7, checksum);
        assertThat(sealer.openU(7, u)).isEqualTo(checksum);
    }

    @Test
    void anotherTimeIsAStaleChecksumAndFails() {
        BlockAddress at = BlockAddress.c(Part.X, 9);
        byte[] sealed = sealer.seal(at, 1024, checksum);
        assertThatThrownBy(() -> sealer.open(at, 2048, sealed)).isInstanceOf(SealBrokenException.class);
    }

    @Test
    void anotherAddressFails() {
        byte[] sealed = sealer.seal(BlockAddress.h(2, Part.X, 1), 8, checksum);
        assertThatThrownBy(() -> sealer.open(BlockAddress.h(2, Part.X, 2), 8, sealed))
                .isInstanceOf(SealBrokenException.class);
        assertThatThrownBy(() -> sealer.open(BlockAddress.h(2, Part.Y, 1), 8, sealed))
                .isInstanceOf(SealBrokenException.class);
        assertThatThrownBy(() -> sealer.open(BlockAddress.c(Part.X, 1), 8, sealed))
                .isInstanceOf(SealBrokenException.class);
        byte[] u = sealer.sealU(7, checksum);
        assertThatThrownBy(() -> sealer.openU(8, u)).isInstanceOf(SealBrokenException.class);
    }

    @Test
    void alteredTruncatedOrMissingSealsFail() {
        BlockAddress at = BlockAddress.c(Part.X, 0);
        byte[] sealed = sealer.seal(at, 0, checksum);
        for (int i = 0; i < sealed.length; i++) {
            byte[] altered = sealed.clone();
            altered[i] ^= 1;
            assertThatThrownBy(() -> sealer.open(at, 0, altered)).isInstanceOf(SealBrokenException.class);
        }
        assertThatThrownBy(() -> sealer.open(at, 0, java.util.Arrays.copyOf(sealed, 47)))
                .isInstanceOf(SealBrokenException.class);
        assertThatThrownBy(() -> sealer.open(at, 0, null)).isInstanceOf(SealBrokenException.class);
    }

    @Test
    void anotherKeyCannotOpen() {
        ChecksumSealer other = new ChecksumSealer(ChecksumKeyTest.bytes(32, 2), new SecureRandom());
        byte[] sealed = sealer.seal(BlockAddress.c(Part.X, 0), 0, checksum);
        assertThatThrownBy(() -> other.open(BlockAddress.c(Part.X, 0), 0, sealed))
                .isInstanceOf(SealBrokenException.class);
    }

    @Test
    void sealingTheSameChecksumTwiceGivesDifferentBytes() {
        BlockAddress at = BlockAddress.c(Part.X, 0);
        assertThat(sealer.seal(at, 0, checksum)).isNotEqualTo(sealer.seal(at, 0, checksum));
    }

    @Test
    void uIsNotSealedUnderATimeKey() {
        assertThatThrownBy(() -> sealer.seal(BlockAddress.u(0), 0, checksum))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aChecksumSealedForOneCapacityOpensForNoOtherNorUnbound() {
        Checksum checksum = Checksum.zero();
        BlockAddress at = BlockAddress.c(Part.X, 3);
        ChecksumSealer atTen = sealer.boundTo(10);
        byte[] sealed = atTen.seal(at, 1L << 20, checksum);

        assertThat(atTen.open(at, 1L << 20, sealed)).isEqualTo(checksum);
        assertThat(sealer.boundTo(10).open(at, 1L << 20, sealed)).isEqualTo(checksum);
        // the same address and time (epoch 2^9 at 2^10 blocks is epoch 2^8 at 2^11): only k tells them apart
        assertThatThrownBy(() -> sealer.boundTo(9).open(at, 1L << 20, sealed))
                .isInstanceOf(SealBrokenException.class);
        assertThatThrownBy(() -> sealer.boundTo(11).open(at, 1L << 20, sealed))
                .isInstanceOf(SealBrokenException.class);
        assertThatThrownBy(() -> sealer.open(at, 1L << 20, sealed)).isInstanceOf(SealBrokenException.class);
        byte[] unbound = sealer.seal(at, 1L << 20, checksum);
        assertThatThrownBy(() -> atTen.open(at, 1L << 20, unbound)).isInstanceOf(SealBrokenException.class);
        assertThat(sealer.boundTo(10).openU(3, sealer.sealU(3, checksum))).isEqualTo(checksum); // U is not bound
    }
}
