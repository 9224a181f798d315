package io.coffer.gateway.auth;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Decodes an {@code aws-chunked} request body ({@code Content-Encoding: aws-chunked}), yielding the object bytes.
 *
 * <pre>
 *   hex-size[;chunk-signature=sig] CRLF  data CRLF     (repeated)
 *   0[;chunk-signature=sig] CRLF                       (final chunk)
 *   [name:value CRLF ...  [x-amz-trailer-signature:sig CRLF]]   (trailers, the -TRAILER variants)
 *   CRLF
 * </pre>
 *
 * <p>Signed variants: each chunk's signature is checked against the chain seeded by the request signature, at the
 * end of the chunk, before any byte of the next chunk is returned; the trailer signature continues the chain. The
 * stream reports EOF only after the final chunk and the trailers have been checked, so a consumer that commits at
 * EOF never commits a forged, truncated or malformed body: it gets an {@link IOException} caused by an
 * {@link S3Exception} (SignatureDoesNotMatch, IncompleteBody, InvalidArgument, MalformedTrailerError) instead.
 *
 * <p>Chunk sizes are hex digits only (no sign, no {@code 0x}). The trailers must be exactly those the request
 * declared in {@code x-amz-trailer}: a declared checksum that does not arrive would otherwise go unchecked.
 *
 * <p>Limits, set before parsing (not after an out-of-memory): a chunk header or trailer line is at most 4 KiB,
 * a chunk at most 16 MiB, trailers at most 16 lines. Memory: an 8 KiB read buffer and one line buffer; chunk data
 * is streamed.
 */
public final class AwsChunkedInputStream extends InputStream {
    public static final int MAX_LINE = 4096;
    public static final int MAX_CHUNK = 16 * 1024 * 1024;
    private static final int MAX_TRAILERS = 16;
    private static final int READ_BUFFER = 8192;

    private final InputStream in;
    private final ChunkSigner signer;
    private final Set<String> declaredTrailers;
    private final Map<String, String> trailerValues = new LinkedHashMap<>();
    private long remainingInChunk;
    private boolean eof;
    private IOException failure;
    private MessageDigest chunkDigest;
    private String chunkSignature;
    private long decoded;

    /**
     * @param signer           verifies the chunk signature chain; null for unsigned payloads
     * @param declaredTrailers the trailing headers that follow the final chunk (lower-case names, see
     *                         {@link #declaredTrailers}); null when the payload has no trailer section
     */
    public AwsChunkedInputStream(InputStream in, ChunkSigner signer, Set<String> declaredTrailers) {
        // chunk headers and trailers are parsed a byte at a time; without a buffer each byte is a locked pipe read
        this.in = new BufferedInputStream(in, READ_BUFFER);
        this.signer = signer;
        this.declaredTrailers = declaredTrailers == null ? null : Set.copyOf(declaredTrailers);
    }

    /** The names an {@code x-amz-trailer} header declares, lower-case; empty for null. */
    public static Set<String> declaredTrailers(String header) {
        Set<String> names = new LinkedHashSet<>();
        if (header != null) {
            for (String n : header.split(",")) {
                if (!n.isBlank()) {
                    names.add(n.trim().toLowerCase(Locale.ROOT));
                }
            }
        }
        return names;
    }

    /** Trailing headers (lower-case names), complete once the stream reported EOF. */
    public Map<String, String> trailers() {
        return trailerValues;
    }

    /** Decoded bytes returned so far. */
    public long decodedLength() {
        return decoded;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (failure != null) {
            throw failure;
        }
        if (len == 0) {
            return 0;
        }
        try {
            while (!eof && remainingInChunk == 0) {
                nextChunk();
            }
            if (eof) {
                return -1;
            }
            int n = in.read(b, off, (int) Math.min(len, remainingInChunk));
            if (n < 0) {
                throw new S3Exception(S3ErrorCode.INCOMPLETE_BODY);
            }
            if (chunkDigest != null) {
                chunkDigest.update(b, off, n);
            }
            remainingInChunk -= n;
            decoded += n;
            if (remainingInChunk == 0) {
                endChunk();
            }
            return n;
        } catch (S3Exception e) {
            failure = e.asIOException();
            throw failure;
        }
    }

    private void endChunk() throws IOException {
        expectCrlf();
        verifyChunk();
    }

    private void verifyChunk() {
        if (signer != null) {
            String hash = SigV4.hex(chunkDigest.digest());
            if (!signer.verifyChunk(hash, chunkSignature)) {
                throw new S3Exception(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
            }
        }
    }

    private void nextChunk() throws IOException {
        String line = readLine();
        String sizePart = line;
        chunkSignature = null;
        int semi = line.indexOf(';');
        if (semi >= 0) {
            sizePart = line.substring(0, semi);
            String ext = line.substring(semi + 1).trim();
            if (ext.startsWith("chunk-signature=")) {
                chunkSignature = ext.substring("chunk-signature=".length());
            }
        }
        if (signer != null && chunkSignature == null) {
            throw new S3Exception(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH, "A chunk signature is missing.");
        }
        long size = parseChunkSize(sizePart.trim());
        if (size > MAX_CHUNK) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "aws-chunked chunk larger than " + MAX_CHUNK
                    + " bytes.");
        }
        chunkDigest = signer != null ? SigV4.sha256() : null;
        if (size > 0) {
            remainingInChunk = size;
            return;
        }
        verifyChunk();
        if (declaredTrailers != null) {
            readTrailers();
        } else {
            expectCrlf();
        }
        eof = true;
    }

    /** 1 to 8 hex digits; Long.parseLong would also take a sign ("+10", "-0"). */
    private static long parseChunkSize(String hex) {
        boolean digits = !hex.isEmpty() && hex.length() <= 8;
        for (int i = 0; digits && i < hex.length(); i++) {
            digits = Character.digit(hex.charAt(i), 16) >= 0 && hex.charAt(i) < 128;
        }
        if (!digits) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Malformed aws-chunked encoding: bad chunk size.");
        }
        return Long.parseLong(hex, 16);
    }

    private void readTrailers() throws IOException {
        StringBuilder signedText = new StringBuilder();
        String trailerSignature = null;
        for (int i = 0; ; i++) {
            String line = readLine();
            if (line.isEmpty()) {
                break;
            }
            if (i >= MAX_TRAILERS) {
                throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Too many trailing headers.");
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Malformed trailing header.");
            }
            String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).trim();
            if (name.equals("x-amz-trailer-signature")) {
                trailerSignature = value;
            } else if (!declaredTrailers.contains(name)) {
                throw new S3Exception(S3ErrorCode.MALFORMED_TRAILER_ERROR, "The trailing header " + name
                        + " was not declared in x-amz-trailer.");
            } else {
                trailerValues.put(name, value);
                signedText.append(name).append(':').append(value).append('\n');
            }
        }
        if (signer != null && !signer.verifyTrailer(signedText.toString(), trailerSignature)) {
            throw new S3Exception(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
        }
        for (String name : declaredTrailers) {
            if (!trailerValues.containsKey(name)) {
                throw new S3Exception(S3ErrorCode.MALFORMED_TRAILER_ERROR, "The trailing header " + name
                        + " declared in x-amz-trailer is missing.");
            }
        }
    }

    private void expectCrlf() throws IOException {
        int cr = in.read();
        int lf = in.read();
        if (cr < 0 || lf < 0) {
            throw new S3Exception(S3ErrorCode.INCOMPLETE_BODY);
        }
        if (cr != '\r' || lf != '\n') {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Malformed aws-chunked encoding.");
        }
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(96);
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new S3Exception(S3ErrorCode.INCOMPLETE_BODY);
            }
            if (c == '\r') {
                int lf = in.read();
                if (lf < 0) {
                    throw new S3Exception(S3ErrorCode.INCOMPLETE_BODY);
                }
                if (lf != '\n') {
                    throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Malformed aws-chunked encoding.");
                }
                return line.toString(StandardCharsets.UTF_8);
            }
            if (line.size() >= MAX_LINE) {
                throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "aws-chunked line longer than " + MAX_LINE
                        + " bytes.");
            }
            line.write(c);
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    /** Checks the signature chain of a signed aws-chunked payload. */
    public static final class ChunkSigner {
        private final byte[] signingKey;
        private final String amzDate;
        private final String scope;
        private String previous;

        /** @param seedSignature the signature of the request itself, which starts the chain */
        public ChunkSigner(byte[] signingKey, String amzDate, String scope, String seedSignature) {
            this.signingKey = signingKey.clone();
            this.amzDate = amzDate;
            this.scope = scope;
            this.previous = seedSignature;
        }

        boolean verifyChunk(String chunkSha256Hex, String provided) {
            String expected = SigV4.sign(signingKey, SigV4.chunkStringToSign(amzDate, scope, previous,
                    chunkSha256Hex));
            previous = expected;
            return SigV4.signaturesEqual(expected, provided);
        }

        boolean verifyTrailer(String trailerText, String provided) {
            String expected = SigV4.sign(signingKey, SigV4.trailerStringToSign(amzDate, scope, previous,
                    trailerText));
            previous = expected;
            return SigV4.signaturesEqual(expected, provided);
        }

        /** The signature the next chunk must carry (for signing in tests). */
        public String sign(String chunkSha256Hex) {
            previous = SigV4.sign(signingKey, SigV4.chunkStringToSign(amzDate, scope, previous, chunkSha256Hex));
            return previous;
        }

        /** The trailer signature that continues the chain (for signing in tests). */
        public String signTrailer(String trailerText) {
            previous = SigV4.sign(signingKey, SigV4.trailerStringToSign(amzDate, scope, previous, trailerText));
            return previous;
        }
    }
}
