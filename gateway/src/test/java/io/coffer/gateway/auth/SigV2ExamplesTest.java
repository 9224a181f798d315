package io.coffer.gateway.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * AWS's worked examples of Signature Version 2 (test resource auth/sigv2-examples.txt, source named there): each
 * request's string to sign is the published one, and the authenticator accepts the published signature.
 */
class SigV2ExamplesTest {
    static final String AKID = "AKIAIOSFODNN7EXAMPLE";
    static final String SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

    record Example(String name, String bucket, Instant now, SignedRequest request, String stringToSign) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Example> examples() throws IOException {
        List<String> lines;
        try (InputStream in = SigV2ExamplesTest.class.getResourceAsStream("/auth/sigv2-examples.txt")) {
            lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
        List<Example> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).startsWith("example: ")) {
                continue;
            }
            String name = lines.get(i).substring(9);
            String bucket = lines.get(++i).substring("bucket: ".length());
            Instant now = Instant.parse(lines.get(++i).substring("now: ".length()));
            String[] requestLine = lines.get(++i).split(" ");
            Map<String, List<String>> headers = new LinkedHashMap<>();
            while (!lines.get(++i).equals("string-to-sign:")) {
                String h = lines.get(i);
                int colon = h.indexOf(':');
                headers.computeIfAbsent(h.substring(0, colon).toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                        .add(h.substring(colon + 1).strip());
            }
            List<String> sts = new ArrayList<>();
            while (!lines.get(++i).equals("end")) {
                sts.add(lines.get(i));
            }
            String target = requestLine[1];
            int q = target.indexOf('?');
            List<Map.Entry<String, String>> query = new ArrayList<>();
            if (q >= 0) {
                for (String pair : target.substring(q + 1).split("&")) {
                    int eq = pair.indexOf('=');
                    query.add(new AbstractMap.SimpleImmutableEntry<>(
                            SigV4.percentDecode(eq < 0 ? pair : pair.substring(0, eq), true),
                            eq < 0 ? "" : SigV4.percentDecode(pair.substring(eq + 1), true)));
                }
            }
            String rawPath = SignedRequest.rawPath(target);
            SignedRequest request = new SignedRequest(requestLine[0], SigV4.percentDecode(rawPath, false), query,
                    headers, rawPath, bucket.equals("-") ? null : bucket);
            out.add(new Example(name, bucket, now, request, String.join("\n", sts)));
        }
        assertThat(out).hasSize(9);
        return out.stream();
    }

    @ParameterizedTest
    @MethodSource("examples")
    void stringToSignIsThePublishedOne(Example e) {
        SignedRequest r = e.request();
        boolean query = r.header("authorization") == null;
        String amzDate = r.header("x-amz-date");
        String dateLine = query ? r.queryParam("Expires") : amzDate != null ? "" : r.header("date");
        String actual = SigV2.stringToSign(r.method(), r.header("content-md5"), r.header("content-type"), dateLine,
                SigV2.canonicalAmzHeaders(r.headers()), SigV2.canonicalResource(r.virtualBucket(), r.rawPath(),
                        r.query()));
        assertThat(actual).isEqualTo(e.stringToSign());
    }

    @ParameterizedTest
    @MethodSource("examples")
    void publishedSignatureVerifies(Example e) {
        RequestAuthenticator auth = new RequestAuthenticator(CredentialStore.of(new Credential(AKID, SECRET, "t")),
                Clock.fixed(e.now(), ZoneOffset.UTC), true);
        AuthResult result = auth.verify(e.request());
        assertThat(result.credential().accessKeyId()).isEqualTo(AKID);
        assertThat(result.payloadSha256()).as("SigV2 does not sign the body").isNull();
        assertThat(result.presigned()).isEqualTo(e.request().header("authorization") == null);
    }
}
