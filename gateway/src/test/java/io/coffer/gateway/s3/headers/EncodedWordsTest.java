package io.coffer.gateway.s3.headers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EncodedWordsTest {
    @Test
    void decodesBase64AndQuotedPrintableWordsInAnyCase() {
        assertThat(EncodedWords.decode("=?UTF-8?B?SGVsbG8gV29ybGTDqQ==?=")).isEqualTo("Hello World\u00e9");
        assertThat(EncodedWords.decode("=?utf-8?b?5Lit5paH?=")).isEqualTo("\u4e2d\u6587");
        assertThat(EncodedWords.decode("=?UTF-8?Q?Hello_World=C3=A9?=")).isEqualTo("Hello World\u00e9");
        assertThat(EncodedWords.decode("=?utf-8?q?a=3fb=3Dc?=")).isEqualTo("a?b=c");
    }

    @Test
    void decodesTheCharsetsJavaKnows() {
        assertThat(EncodedWords.decode("=?ISO-8859-1?Q?caf=E9?=")).isEqualTo("caf\u00e9");
        assertThat(EncodedWords.decode("=?windows-1252?Q?=80?=")).isEqualTo("\u20ac");
        assertThat(EncodedWords.decode("=?Shift_JIS?B?k/qWe4zq?=")).isEqualTo("\u65e5\u672c\u8a9e");
        assertThat(EncodedWords.decode("=?UTF-8*en?Q?caf=C3=A9?=")).as("RFC 2231 language").isEqualTo("caf\u00e9");
    }

    @Test
    void dropsWhiteSpaceBetweenAdjacentWordsAndKeepsItBesideText() {
        assertThat(EncodedWords.decode("=?UTF-8?Q?a?= \t =?UTF-8?Q?b?=")).isEqualTo("ab");
        assertThat(EncodedWords.decode("x =?UTF-8?Q?a?= y")).isEqualTo("x a y");
        assertThat(EncodedWords.decode("=?UTF-8?Q?a?= =?ISO-8859-1?Q?=E9?=")).isEqualTo("a\u00e9");
    }

    @Test
    void decodesACharacterSplitBetweenAdjacentWords() {
        // U+00E9 is C3 A9 in UTF-8: one byte in each word
        assertThat(EncodedWords.decode("=?UTF-8?Q?=C3?= =?UTF-8?Q?=A9?=")).isEqualTo("\u00e9");
        assertThat(EncodedWords.decode("=?UTF-8?B?w6nk?= =?UTF-8?B?uK0=?=")).isEqualTo("\u00e9\u4e2d");
    }

    @ParameterizedTest
    @ValueSource(strings = {"=?UTF-8?B?not base64?=", "=?UTF-8?B?@@@@?=", "=?UTF-8?Q?=ZZ?=", "=?UTF-8?Q?=C?=",
        "=?no-such-charset?B?YQ==?=", "=?UTF-8?X?abc?=", "=?UTF-8?B?/w==?=", "=?UTF-8?Q?a", "=??B?YQ==?=",
        "plain =? text ?= here", "a=?b"})
    void leavesMalformedWordsAsTheyAre(String value) {
        assertThat(EncodedWords.decode(value)).isEqualTo(value);
    }

    @Test
    void leavesAMalformedWordBesideDecodedOnes() {
        assertThat(EncodedWords.decode("=?UTF-8?Q?a?= =?no-such?Q?x?= =?UTF-8?Q?b?="))
                .isEqualTo("a =?no-such?Q?x?= b");
        // adjacent words of one charset are decoded together, so bytes that are not UTF-8 leave the whole run
        assertThat(EncodedWords.decode("x =?UTF-8?Q?a?= =?UTF-8?B?/w==?= y"))
                .isEqualTo("x =?UTF-8?Q?a?= =?UTF-8?B?/w==?= y");
    }

    @Test
    void encodesOnlyWhatIsNotPrintableUsAscii() {
        assertThat(EncodedWords.encode("plain value ~!")).isEqualTo("plain value ~!");
        assertThat(EncodedWords.encode("")).isEmpty();
        assertThat(EncodedWords.encode("Hello World\u00e9")).isEqualTo("=?UTF-8?B?SGVsbG8gV29ybGTDqQ==?=");
        // botocore sends UTF-8 bytes, which arrive as ISO-8859-1 characters, as they do on S3
        assertThat(EncodedWords.encode("Hello World\u00c3\u00a9")).isEqualTo("=?UTF-8?B?SGVsbG8gV29ybGTDg8Kp?=");
        assertThat(EncodedWords.encode("tab\there")).isEqualTo("=?UTF-8?B?dGFiCWhlcmU=?=");
        assertThat(EncodedWords.encode("del\u007f")).startsWith("=?UTF-8?B?");
    }

    @Test
    void arbitraryUnicodeSurvivesEncodeThenDecode() {
        Random random = new Random(17);
        for (int i = 0; i < 2000; i++) {
            StringBuilder sb = new StringBuilder();
            for (int n = random.nextInt(40); n > 0; n--) {
                int cp = random.nextInt(4) == 0 ? random.nextInt(0x80) : random.nextInt(0x10ffff);
                if (Character.getType(cp) != Character.SURROGATE) {
                    sb.appendCodePoint(cp);
                }
            }
            String value = sb.toString();
            String header = EncodedWords.encode(value);
            assertThat(header).matches("[\\x20-\\x7e]*");
            assertThat(EncodedWords.decode(header)).as(value).isEqualTo(value);
        }
        String controls = "\u0000\u0001\r\n\u001f\u0085";
        assertThat(EncodedWords.decode(EncodedWords.encode(controls))).isEqualTo(controls);
        assertThat(Base64.getDecoder().decode(EncodedWords.encode(controls).substring(10, 22)))
                .isEqualTo(controls.getBytes(StandardCharsets.UTF_8));
    }
}
