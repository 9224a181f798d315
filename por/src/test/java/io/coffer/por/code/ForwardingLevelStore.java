package io.coffer.por.code;

/** A {@link LevelStore} that passes every call to another: tests override what they count or record. */
public class ForwardingLevelStore implements LevelStore {
    protected final LevelStore inner;

    public ForwardingLevelStore(LevelStore inner) {
        this.inner = inner;
    }

    @Override
    public int width() {
        return inner.width();
    }

    @Override
    public void read(int level, Part part, int index, int[] into) {
        inner.read(level, part, index, into);
    }

    @Override
    public void write(int level, Part part, int index, int[] vector) {
        inner.write(level, part, index, vector);
    }

    @Override
    public void clear(int level) {
        inner.clear(level);
    }

    @Override
    public void clear(int level, int from, int count) {
        inner.clear(level, from, count);
    }

    @Override
    public void writeOneElement(int level, int position, int[] x, int[] y) {
        inner.writeOneElement(level, position, x, y);
    }
}
