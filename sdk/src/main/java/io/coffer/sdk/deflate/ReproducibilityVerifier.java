package io.coffer.sdk.deflate;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * The PUT-time check: decodes an object partially into two files, re-encodes them, and compares the result with the
 * original by length and SHA-256, both computed while streaming (the original is read once). Only a
 * {@link Verdict#reproducible() reproducible} object may be stored in its partially decoded form; otherwise the caller
 * stores the original bytes, which it keeps itself (a tee of the stream it passes here). On a failure the rest of the
 * input is still read, so such a tee sees the whole object. I/O errors of the streams or files are thrown, not judged.
 */
public final class ReproducibilityVerifier {
    private final PartialDecoder decoder;
    private final PartialEncoder encoder = new PartialEncoder();

    public ReproducibilityVerifier() {
        this(DecodeLimits.DEFAULT);
    }

    public ReproducibilityVerifier(DecodeLimits limits) {
        this.decoder = new PartialDecoder(limits);
    }

    /** Decodes {@code original} (to its end) into {@code tokensOut} and {@code sideInfoOut}, then re-encodes to check. */
    public Verdict verify(InputStream original, Path tokensOut, Path sideInfoOut) throws IOException {
        MessageDigest originalDigest = sha256();
        DigestInputStream in = new DigestInputStream(original, originalDigest);
        DecodeSummary summary;
        try (OutputStream tokens = Files.newOutputStream(tokensOut);
             OutputStream side = Files.newOutputStream(sideInfoOut)) {
            summary = decoder.decode(in, tokens, side);
        } catch (DeflateFormatException e) {
            in.transferTo(OutputStream.nullOutputStream());
            return Verdict.notReproducible(e.getMessage(), null);
        }
        MessageDigest reencodedDigest = sha256();
        long reencoded;
        try (InputStream tokens = Files.newInputStream(tokensOut);
             InputStream side = Files.newInputStream(sideInfoOut);
             OutputStream out = new DigestOutputStream(OutputStream.nullOutputStream(), reencodedDigest)) {
            reencoded = encoder.encode(tokens, side, out);
        } catch (DeflateFormatException e) {
            return Verdict.notReproducible("re-encoding failed: " + e.getMessage(), summary);
        }
        if (reencoded != summary.compressedBytes()) {
            return Verdict.notReproducible("re-encoded " + reencoded + " bytes, original " + summary.compressedBytes(),
                    summary);
        }
        if (!Arrays.equals(originalDigest.digest(), reencodedDigest.digest())) {
            return Verdict.notReproducible("re-encoded bytes differ from the original (SHA-256)", summary);
        }
        return Verdict.reproducible(summary);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
