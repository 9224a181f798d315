package io.coffer.por.checksum;

import java.util.Arrays;

/** Run in a child JVM by {@link ChecksumKernelsTest}: prints the kernel that JVM chose and a checksum it computed. */
public final class KernelProbe {
    private KernelProbe() {}

    public static void main(String[] args) {
        System.out.println(ChecksumKernels.chosenName());
        System.out.println(Arrays.toString(ChecksumKernelsTest.probeChecksum().rows()));
    }
}
