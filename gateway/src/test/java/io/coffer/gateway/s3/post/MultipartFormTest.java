package io.coffer.gateway.s3.post;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The streaming multipart/form-data reader: parts, boundaries split across reads, and malformed bodies. */
class MultipartFormTest {
    static final String BOUNDARY = "----CofferBoundary7MA4YWxk";

    /** Hands out at most {@code step} bytes per read, so boundaries fall across reads. */
    static InputStream trickle(byte[] body, int step) {
        return new FilterInputStream(new ByteArrayInputStream(body)) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return super.read(b, off, Math.min(len, step));
            }
        };
    }

    static byte[] form(byte[] file) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(("preamble to ignore\r\n--" + BOUNDARY
                + "\r\nContent-Disposition: form-data; name=\"key\"\r\n\r\n" + "uploads/${filename}\r\n--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\n"
                + "two\r\nlines\r\n--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"file\";"
                + " filename=\"caf\u00e9 \\\"x\\\".bin\"\r\nContent-Type: application/octet-stream\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8));
        out.writeBytes(file);
        out.writeBytes(("\r\n--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"after\"\r\n\r\nx\r\n--"
                + BOUNDARY + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    @Test
    void partsAreReadInOrderWhateverTheReadSizes() throws IOException {
        byte[] file = new byte[300_000];
        new Random(7).nextBytes(file);
        // bytes that nearly make a delimiter, inside the file
        byte[] near = ("\r\n--" + BOUNDARY.substring(0, BOUNDARY.length() - 1) + "X")
                .getBytes(StandardCharsets.UTF_8);
        System.arraycopy(near, 0, file, 1000, near.length);
        System.arraycopy(near, 0, file, file.length - near.length, near.length);
        for (int step : new int[] {1, 7, 4096, 1 << 20}) {
            MultipartForm form = new MultipartForm(trickle(form(file), step), BOUNDARY);
            MultipartForm.Part key = form.next();
            assertThat(key.name()).isEqualTo("key");
            assertThat(key.filename()).isNull();
            assertThat(new String(key.body().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("uploads/${filename}");
            MultipartForm.Part note = form.next();
            assertThat(new String(note.body().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("two\r\nlines");
            MultipartForm.Part f = form.next();
            assertThat(f.name()).isEqualTo("file");
            assertThat(f.filename()).isEqualTo("caf\u00e9 \"x\".bin");
            assertThat(f.contentType()).isEqualTo("application/octet-stream");
            assertThat(f.body().readAllBytes()).as("step " + step).isEqualTo(file);
            assertThat(form.next().name()).isEqualTo("after");
            assertThat(form.next()).isNull();
            assertThat(form.next()).isNull();
        }
    }

    @Test
    void anUnreadPartIsSkippedByNext() throws IOException {
        MultipartForm form = new MultipartForm(new ByteArrayInputStream(form(new byte[100_000])), BOUNDARY);
        form.next();
        form.next();
        form.next();
        assertThat(form.next().name()).isEqualTo("after");
    }

    @Test
    void malformedBodiesAreMalformedPostRequest() {
        String open = "--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\n";
        assertMalformed((open + "no closing boundary").getBytes(StandardCharsets.UTF_8));
        assertMalformed(("--" + BOUNDARY + "\r\nContent-Type: text/plain\r\n\r\nx\r\n--" + BOUNDARY + "--")
                .getBytes(StandardCharsets.UTF_8));
        assertMalformed(("--" + BOUNDARY + "\r\nno colon here\r\n\r\nx\r\n--" + BOUNDARY + "--")
                .getBytes(StandardCharsets.UTF_8));
        assertMalformed(("--" + BOUNDARY + "\r\nX-Big: " + "a".repeat(9000) + "\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8));
        assertMalformed("no boundary at all".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> MultipartForm.boundary("application/x-www-form-urlencoded"))
                .isInstanceOf(S3Exception.class);
        assertThat(MultipartForm.boundary("multipart/form-data; boundary=\"abc\"")).isEqualTo("abc");
    }

    static void assertMalformed(byte[] body) {
        assertThatThrownBy(() -> {
            MultipartForm form = new MultipartForm(new ByteArrayInputStream(body), BOUNDARY);
            for (MultipartForm.Part p = form.next(); p != null; p = form.next()) {
                p.body().readAllBytes();
            }
        }).satisfies(t -> assertThat(S3Exception.from(t).error()).isEqualTo(S3ErrorCode.MALFORMED_POST_REQUEST));
    }
}
