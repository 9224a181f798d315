package io.coffer.gateway.s3.cors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** S3's validation of CORS documents, the canonical form a bucket stores, and origin and header wildcards. */
class CorsConfigurationTest {
    static byte[] doc(String rules) {
        return ("<CORSConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">" + rules
                + "</CORSConfiguration>").getBytes(StandardCharsets.UTF_8);
    }

    static final String RULE = "<CORSRule><ID>web</ID><AllowedOrigin>https://*.example.com</AllowedOrigin>"
            + "<AllowedMethod>GET</AllowedMethod><AllowedMethod>PUT</AllowedMethod>"
            + "<AllowedHeader>x-amz-*</AllowedHeader><AllowedHeader>Content-Type</AllowedHeader>"
            + "<ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>3000</MaxAgeSeconds></CORSRule>";

    @Test
    void aValidDocumentIsReadAndWrittenBackTheSame() {
        CorsConfiguration c = CorsConfiguration.parse(doc(RULE));
        assertThat(c.rules()).hasSize(1);
        CorsRule r = c.rules().get(0);
        assertThat(r.id()).isEqualTo("web");
        assertThat(r.allowedMethods()).containsExactly("GET", "PUT");
        assertThat(r.allowedHeaders()).containsExactly("x-amz-*", "Content-Type");
        assertThat(r.exposeHeaders()).containsExactly("ETag");
        assertThat(r.maxAgeSeconds()).isEqualTo(3000);
        assertThat(CorsConfiguration.parse(c.toXml())).isEqualTo(c);
    }

    @Test
    void documentsS3RefusesAreMalformedXmlOrInvalidRequest() {
        String origin = "<AllowedOrigin>*</AllowedOrigin>";
        String get = "<AllowedMethod>GET</AllowedMethod>";
        assertCode(doc(""), S3ErrorCode.MALFORMED_XML);
        assertCode("<CORSConfiguration/>".getBytes(StandardCharsets.UTF_8), S3ErrorCode.MALFORMED_XML);
        assertCode("<Other><CORSRule/></Other>".getBytes(StandardCharsets.UTF_8), S3ErrorCode.MALFORMED_XML);
        assertCode(doc("<CORSRule>" + origin + "</CORSRule>"), S3ErrorCode.MALFORMED_XML);
        assertCode(doc("<CORSRule>" + get + "</CORSRule>"), S3ErrorCode.MALFORMED_XML);
        assertCode(doc("<CORSRule>" + origin + get + "<MaxAgeSeconds>soon</MaxAgeSeconds></CORSRule>"),
                S3ErrorCode.MALFORMED_XML);
        assertCode(doc("<CORSRule>" + origin + "<AllowedMethod>PATCH</AllowedMethod></CORSRule>"),
                S3ErrorCode.INVALID_REQUEST);
        assertCode(doc("<CORSRule><AllowedOrigin>https://*.*.com</AllowedOrigin>" + get + "</CORSRule>"),
                S3ErrorCode.INVALID_REQUEST);
        assertCode(doc("<CORSRule>" + origin + get + "<AllowedHeader>*-*</AllowedHeader></CORSRule>"),
                S3ErrorCode.INVALID_REQUEST);
        String rule = "<CORSRule>" + origin + get + "</CORSRule>";
        assertThat(CorsConfiguration.parse(doc(rule.repeat(100))).rules()).hasSize(100);
        assertCode(doc(rule.repeat(101)), S3ErrorCode.INVALID_REQUEST);
    }

    @Test
    void originsMatchWithOneWildcardAndHeadersCaseInsensitively() {
        CorsRule r = CorsConfiguration.parse(doc(RULE)).rules().get(0);
        assertThat(r.matchingOrigin("https://app.example.com")).isEqualTo("https://*.example.com");
        assertThat(r.matchingOrigin("https://example.com")).isNull();
        assertThat(r.matchingOrigin("http://app.example.com")).isNull();
        assertThat(r.allowsHeaders(List.of("X-Amz-Date", "content-type"))).isTrue();
        assertThat(r.allowsHeaders(List.of("authorization"))).isFalse();
        assertThat(r.allowsHeaders(List.of())).isTrue();
        assertThat(CorsRule.wildcardMatch("*", "anything")).isTrue();
        assertThat(CorsRule.wildcardMatch("a*a", "a")).isFalse();
    }

    private static void assertCode(byte[] xml, S3ErrorCode code) {
        assertThatThrownBy(() -> CorsConfiguration.parse(xml)).isInstanceOfSatisfying(S3Exception.class,
                e -> assertThat(e.error()).isEqualTo(code));
    }
}
