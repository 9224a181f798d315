package io.coffer.por.code;

/** Counts the vector reads and writes a log or a rebuild makes through a store. */
final class CountingLevelStore extends ForwardingLevelStore {
    long reads;
    long writes;

    CountingLevelStore(LevelStore inner) {
        super(inner);
    }

    void reset() {
        reads = 0;
        writes = 0;
    }

    @Override
    public void read(int level, Part part, int index, int[] into) {
        reads++;
        super.read(level, part, index, into);
    }

    @Override
    public void write(int level, Part part, int index, int[] vector) {
        writes++;
        super.write(level, part, index, vector);
    }
}
