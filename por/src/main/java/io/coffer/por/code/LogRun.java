package io.coffer.por.code;

/**
 * One complete code in H: the 2^level writes of epoch positions start .. start + 2^level - 1, stored in both parts
 * of {@code level} at indices offset .. offset + 2^level - 1. A {@link HierarchicalLog} has one run per filled level
 * (offset 0); a {@link DeamortizedLog} keeps up to three per level.
 */
public record LogRun(int level, int offset, int start) {
    public LogRun {
        if (level < 0 || level > CodeParameters.MAX_K || offset < 0 || start < 0 || start % (1 << level) != 0) {
            throw new IllegalArgumentException("not a run: level " + level + ", offset " + offset + ", start " + start);
        }
    }

    public int size() {
        return 1 << level;
    }
}
