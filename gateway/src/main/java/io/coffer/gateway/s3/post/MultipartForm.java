package io.coffer.gateway.s3.post;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A streaming reader of a {@code multipart/form-data} body (RFC 7578): parts one after another, each body an
 * {@link InputStream} that ends at the next boundary, so a file part of any size passes through a fixed 64 KiB buffer.
 * A part's headers are at most 8 KiB. What is not well-formed is MalformedPOSTRequest.
 */
public final class MultipartForm {
    private static final int BUFFER = 64 * 1024;
    private static final int MAX_PART_HEADERS = 8 * 1024;

    private final InputStream in;
    private final byte[] delimiter;
    private final byte[] buf;
    private int pos;
    private int limit;
    private boolean eof;
    private PartBody current;
    private boolean finished;

    /** One part: its form field name, file name (null for a plain field), Content-Type (null if none) and body. */
    public record Part(String name, String filename, String contentType, InputStream body) {
    }

    public MultipartForm(InputStream in, String boundary) {
        this.in = in;
        this.delimiter = ("\r\n--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        this.buf = new byte[BUFFER + delimiter.length];
        // the first boundary has no CRLF before it: start as if one had been read
        buf[0] = '\r';
        buf[1] = '\n';
        limit = 2;
    }

    /** The boundary of a {@code multipart/form-data} Content-Type; MalformedPOSTRequest when it has none. */
    public static String boundary(String contentType) {
        if (contentType != null && contentType.trim().toLowerCase(Locale.ROOT).startsWith("multipart/form-data")) {
            for (String param : contentType.split(";")) {
                String p = param.trim();
                if (p.toLowerCase(Locale.ROOT).startsWith("boundary=")) {
                    String b = p.substring("boundary=".length()).trim();
                    if (b.length() >= 2 && b.startsWith("\"") && b.endsWith("\"")) {
                        b = b.substring(1, b.length() - 1);
                    }
                    if (!b.isEmpty() && b.length() <= 70) {
                        return b;
                    }
                }
            }
        }
        throw malformed("The request's Content-Type is not multipart/form-data with a boundary.");
    }

    /** The next part (the previous one's unread body is skipped), or null after the closing boundary. */
    public Part next() throws IOException {
        if (finished) {
            return null;
        }
        if (current == null) {
            // the preamble, up to the first boundary
            current = new PartBody();
        }
        current.skipRest();
        // after a boundary: "--" closes the body, CRLF starts a part (transport padding ignored)
        int a = readByte();
        int b = readByte();
        if (a == '-' && b == '-') {
            finished = true;
            return null;
        }
        while (a == ' ' || a == '\t') {
            a = b;
            b = readByte();
        }
        if (a != '\r' || b != '\n') {
            throw malformed("Expected CRLF after a boundary.");
        }
        String name = null;
        String filename = null;
        String contentType = null;
        int headerBytes = 0;
        for (String line = readLine(); !line.isEmpty(); line = readLine()) {
            headerBytes += line.length() + 2;
            if (headerBytes > MAX_PART_HEADERS) {
                throw malformed("A part's headers are larger than 8 KiB.");
            }
            int colon = line.indexOf(':');
            if (colon < 0) {
                throw malformed("A part header has no colon.");
            }
            String header = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).trim();
            if (header.equals("content-disposition")) {
                name = parameter(value, "name");
                filename = parameter(value, "filename");
            } else if (header.equals("content-type")) {
                contentType = value;
            }
        }
        if (name == null) {
            throw malformed("A part has no Content-Disposition name.");
        }
        current = new PartBody();
        return new Part(name, filename, contentType, current);
    }

    /** A quoted (or bare) parameter of a Content-Disposition value, or null. */
    static String parameter(String disposition, String param) {
        int i = 0;
        String lower = disposition.toLowerCase(Locale.ROOT);
        while ((i = lower.indexOf(param + "=", i)) >= 0) {
            boolean start = i == 0 || lower.charAt(i - 1) == ';' || lower.charAt(i - 1) == ' '
                    || lower.charAt(i - 1) == '\t';
            int v = i + param.length() + 1;
            if (!start) {
                i = v;
                continue;
            }
            if (v < disposition.length() && disposition.charAt(v) == '"') {
                StringBuilder sb = new StringBuilder();
                for (int j = v + 1; j < disposition.length(); j++) {
                    char c = disposition.charAt(j);
                    if (c == '\\' && j + 1 < disposition.length()) {
                        sb.append(disposition.charAt(++j));
                    } else if (c == '"') {
                        return sb.toString();
                    } else {
                        sb.append(c);
                    }
                }
                throw malformed("Unterminated quoted parameter.");
            }
            int end = disposition.indexOf(';', v);
            return disposition.substring(v, end < 0 ? disposition.length() : end).trim();
        }
        return null;
    }

    private String readLine() throws IOException {
        StringBuilder sb = new StringBuilder();
        while (true) {
            int c = readByte();
            if (c == '\r') {
                if (readByte() != '\n') {
                    throw malformed("A part header line does not end with CRLF.");
                }
                // header bytes as sent; browsers send UTF-8 file names
                return new String(sb.toString().getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
            }
            sb.append((char) c);
            if (sb.length() > MAX_PART_HEADERS) {
                throw malformed("A part's headers are larger than 8 KiB.");
            }
        }
    }

    private int readByte() throws IOException {
        if (pos == limit && !fill()) {
            throw malformed("The body ends before its closing boundary.");
        }
        return buf[pos++] & 0xff;
    }

    /** Moves the unread bytes to the front and reads more; false at end of input with nothing unread. */
    private boolean fill() throws IOException {
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, limit - pos);
            limit -= pos;
            pos = 0;
        }
        if (eof || limit == buf.length) {
            return limit > 0;
        }
        int n = in.read(buf, limit, buf.length - limit);
        if (n < 0) {
            eof = true;
        } else {
            limit += n;
        }
        return limit > pos;
    }

    private int indexOfDelimiter() {
        outer:
        for (int i = pos; i <= limit - delimiter.length; i++) {
            for (int j = 0; j < delimiter.length; j++) {
                if (buf[i + j] != delimiter[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    static S3Exception malformed(String detail) {
        return new S3Exception(S3ErrorCode.MALFORMED_POST_REQUEST,
                S3ErrorCode.MALFORMED_POST_REQUEST.defaultMessage() + " " + detail);
    }

    /** The body of one part: bytes up to the next delimiter, which it consumes at its end. */
    private final class PartBody extends InputStream {
        private boolean done;

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (done) {
                return -1;
            }
            if (len == 0) {
                return 0;
            }
            while (true) {
                int d = indexOfDelimiter();
                if (d == pos) {
                    pos += delimiter.length;
                    done = true;
                    return -1;
                }
                // bytes before a delimiter found, or those that cannot begin one still unseen
                int safe = d >= 0 ? d : Math.max(pos, limit - delimiter.length + 1);
                if (safe > pos) {
                    int n = Math.min(len, safe - pos);
                    System.arraycopy(buf, pos, b, off, n);
                    pos += n;
                    return n;
                }
                int before = limit - pos;
                if (!fill() || (eof && limit - pos == before && indexOfDelimiter() < 0)) {
                    throw malformed("The body ends before its closing boundary.").asIOException();
                }
            }
        }

        void skipRest() throws IOException {
            byte[] skip = new byte[8192];
            while (read(skip, 0, skip.length) >= 0) {
                // discarded
            }
        }
    }
}
