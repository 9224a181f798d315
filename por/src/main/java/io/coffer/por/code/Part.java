package io.coffer.por.code;

/**
 * The two halves of a level: X holds the evaluations of the level's polynomial at the even powers of its
 * 2^(l+1)-th root of unity, Y (times a known constant) those at the odd powers (docs/POR.md, "The code").
 */
public enum Part {
    X,
    Y
}
