package io.coffer.por.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.checksum.BlockAddress;
import io.coffer.por.checksum.ChecksumKey;
import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.field.Zp;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The audit algebra over real sealed checksums of blocks held in a map, before any code or server is involved. */
class AuditVerifierTest {
    private static final int WIDTH = 40;
    private static final long C_TIME = 1024;

    private final ChecksumKey key = ChecksumKey.derive(new byte[32], WIDTH);
    private final ChecksumSealer sealer = new ChecksumSealer(new byte[32], new SecureRandom());
    private final AuditPlanner planner = new AuditPlanner(AuditPlanner.DEFAULT_LAMBDA, new SecureRandom());
    private final Map<BlockAddress, int[]> blocks = new HashMap<>();
    private final Map<BlockAddress, byte[]> sealed = new HashMap<>();
    private final List<AuditedRegion> regions = List.of(AuditedRegion.c(512, C_TIME), AuditedRegion.run(2, 4, 1024),
            AuditedRegion.run(7, 0, 1024));

    AuditVerifierTest() {
        SplittableRandom random = new SplittableRandom(2);
        for (AuditedRegion region : regions) {
            for (long j = 0; j < region.size(); j++) {
                int[] block = new int[WIDTH];
                for (int e = 0; e < WIDTH; e++) {
                    block[e] = random.nextInt(Zp.P);
                }
                BlockAddress at = region.address(j);
                blocks.put(at, block);
                sealed.put(at, sealer.seal(at, region.writeTime(j), key.checksum(block)));
            }
        }
    }

    private AuditResponse prove(AuditChallenge challenge) {
        return AuditProver.prove(challenge, WIDTH, new AuditProver.CodeBlocks() {
            @Override
            public int[] block(BlockAddress address) {
                return blocks.get(address);
            }

            @Override
            public byte[] sealedChecksum(BlockAddress address) {
                return sealed.get(address);
            }
        });
    }

    @Test
    void honestBlocksPassAndEveryRegionIsSampled() {
        AuditPlanner.Plan plan = planner.plan(regions);
        // lambda from C and from level 7 (256 blocks), all 8 blocks of level 2
        assertThat(plan.challenge().size()).isEqualTo(128 + 8 + 128);
        assertThat(plan.challenge().addresses()).doesNotHaveDuplicates();
        AuditVerdict verdict = new AuditVerifier(key, sealer).verify(plan, prove(plan.challenge()));
        assertThat(verdict.passed()).as(verdict.reason()).isTrue();
        assertThat(verdict.blocksSampled()).isEqualTo(264);
    }

    @Test
    void aCorruptedSampledBlockFails() {
        AuditPlanner.Plan plan = planner.plan(regions);
        BlockAddress victim = plan.challenge().addresses().get(130);
        blocks.get(victim)[3] = Zp.add(blocks.get(victim)[3], 1);
        AuditVerdict verdict = new AuditVerifier(key, sealer).verify(plan, prove(plan.challenge()));
        assertThat(verdict.passed()).isFalse();
        assertThat(verdict.reason()).contains("does not match");
    }

    @Test
    void aWrongAggregateFails() {
        AuditPlanner.Plan plan = planner.plan(regions);
        AuditResponse honest = prove(plan.challenge());
        int[] aggregate = honest.aggregate();
        aggregate[0] = Zp.add(aggregate[0], 5);
        AuditVerdict verdict = new AuditVerifier(key, sealer)
                .verify(plan, new AuditResponse(aggregate, honest.sealedChecksums()));
        assertThat(verdict.passed()).isFalse();
    }

    @Test
    void aChecksumSealedAtAnotherTimeFails() {
        AuditPlanner.Plan plan = planner.plan(regions);
        BlockAddress victim = plan.challenge().addresses().get(0);
        sealed.put(victim, sealer.seal(victim, C_TIME - 512, key.checksum(blocks.get(victim))));
        AuditVerdict verdict = new AuditVerifier(key, sealer).verify(plan, prove(plan.challenge()));
        assertThat(verdict.passed()).isFalse();
        assertThat(verdict.reason()).contains("fails authentication");
    }

    @Test
    void missingOrExtraChecksumsOrAWrongWidthFail() {
        AuditPlanner.Plan plan = planner.plan(regions);
        AuditResponse honest = prove(plan.challenge());
        List<byte[]> fewer = new ArrayList<>(honest.sealedChecksums());
        fewer.remove(0);
        AuditVerifier verifier = new AuditVerifier(key, sealer);
        assertThat(verifier.verify(plan, new AuditResponse(honest.aggregate(), fewer)).passed()).isFalse();
        assertThat(verifier.verify(plan, new AuditResponse(new int[WIDTH - 1], honest.sealedChecksums())).passed())
                .isFalse();
        int[] outOfField = honest.aggregate();
        outOfField[1] = -1;
        assertThat(verifier.verify(plan, new AuditResponse(outOfField, honest.sealedChecksums())).passed()).isFalse();
    }

    @Test
    void coefficientsAreNonZeroAndWireSizesCountEverySample() {
        AuditPlanner.Plan plan = planner.plan(regions);
        for (int r : plan.challenge().coefficients()) {
            assertThat(r).isBetween(1, Zp.P - 1);
        }
        assertThat(plan.challenge().wireBytes()).isEqualTo(264L * (BlockAddress.BYTES + 4));
        assertThat(prove(plan.challenge()).wireBytes()).isEqualTo(WIDTH * 4L + 264L * ChecksumSealer.SEALED_BYTES);
    }
}
