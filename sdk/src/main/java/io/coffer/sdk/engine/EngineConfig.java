package io.coffer.sdk.engine;

import io.coffer.sdk.blob.BlobStore;
import io.coffer.sdk.chunk.Chunker;
import io.coffer.sdk.crypto.CompressionPolicy;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.key.DedupPolicy;
import io.coffer.sdk.key.KeySource;
import io.coffer.sdk.layer.LayerModePolicy;
import io.coffer.sdk.meta.MetadataStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;

/**
 * Everything an {@link Engine} is made of, validated by {@link io.coffer.sdk.CofferBuilder}.
 *
 * @param packSize        target pack size; a pack is sealed once the next chunk would pass it (or earlier near the
 *                        end of a body longer than one pack, see docs/FORMAT.md)
 * @param inlineLimit     objects (single PUTs, not parts) of at most this many bytes are kept inside their sealed
 *                        manifest instead of being chunked into a pack (0: never)
 * @param minPartSize     smallest multipart part other than the last (S3: 5 MiB)
 * @param keyBatchChunks  chunks whose keys are asked for in one key-source call (1 for in-process sources)
 * @param readAhead       chunk reads a GET keeps in flight ahead of the reader
 * @param gcGrace         how long an unreferenced chunk, a retired pack or an unindexed blob is left alone: must
 *                        exceed the longest upload and the longest read
 * @param gcDeadFraction  a pack whose dead bytes reach this fraction of its size is rewritten
 * @param writeBudget     bytes that all writes together may hold in buffers ({@link BufferBudget})
 * @param readBudget      bytes that all reads together may hold in run buffers ({@link BufferBudget})
 * @param budgetWait      how long a write or a read waits for its share of its budget before failing with SlowDown
 * @param keySourcePause  after a key-source failure, how long writes use random keys without asking it again (so a
 *                        dead key server costs one timeout, not one per batch)
 * @param compression     which new chunks are compressed before they are encrypted, where it pays, and at which zstd
 *                        level (chunk format 3, docs/FORMAT.md); reads handle every format whatever it says
 * @param layers          which buckets keep reproducible gzip objects in SimEnc's layer mode (docs/FORMAT.md,
 *                        "Layer-mode objects"); reads handle layer-mode objects whatever it says
 */
public record EngineConfig(BlobStore blobs, MetadataStore metadata, MasterKey masterKey, Chunker chunker,
                           KeySource keySource, DedupPolicy dedupPolicy, int packSize, int inlineLimit, long minPartSize,
                           int keyBatchChunks, int readAhead, int ioThreads, Duration gcGrace, double gcDeadFraction,
                           Duration keySourcePause, long writeBudget, long readBudget, Duration budgetWait,
                           CompressionPolicy compression, LayerModePolicy layers, MeterRegistry meters) {
}
