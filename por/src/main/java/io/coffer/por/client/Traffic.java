package io.coffer.por.client;

/**
 * Bytes the client sent to and received from the server, counted at the protocol level (blocks as their bytes, sealed
 * checksums, Merkle paths, audit challenges and answers; no transport framing). Block bytes are counted apart so the
 * overhead of PoR beside plain storage can be read off (the paper's Figures 5, 6 and 10).
 */
public final class Traffic {
    private long blockBytes;
    private long overheadUp;
    private long overheadDown;

    void block(long bytes) {
        blockBytes += bytes;
    }

    void up(long bytes) {
        overheadUp += bytes;
    }

    void down(long bytes) {
        overheadDown += bytes;
    }

    /** Bytes of block data moved either way. */
    public long blockBytes() {
        return blockBytes;
    }

    /** Bytes besides block data, client to server. */
    public long overheadUp() {
        return overheadUp;
    }

    /** Bytes besides block data, server to client. */
    public long overheadDown() {
        return overheadDown;
    }

    public long overhead() {
        return overheadUp + overheadDown;
    }

    public void reset() {
        blockBytes = 0;
        overheadUp = 0;
        overheadDown = 0;
    }
}
