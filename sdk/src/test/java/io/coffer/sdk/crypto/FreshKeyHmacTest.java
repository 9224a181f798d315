package io.coffer.sdk.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class FreshKeyHmacTest {
    private final FreshKeyHmac hmac = new FreshKeyHmac();

    /** RFC 4231, test cases 1 to 4 (HMAC-SHA-256), the ones whose key fits one block. */
    @Test
    void matchesRfc4231() {
        HexFormat hex = HexFormat.of();
        byte[] key1 = new byte[20];
        Arrays.fill(key1, (byte) 0x0b);
        assertThat(hex.formatHex(hmac.mac(key1, ascii("Hi There"), 0, 8)))
                .isEqualTo("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
        byte[] message2 = ascii("what do ya want for nothing?");
        assertThat(hex.formatHex(hmac.mac(ascii("Jefe"), message2, 0, message2.length)))
                .isEqualTo("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
        byte[] key3 = new byte[20];
        Arrays.fill(key3, (byte) 0xaa);
        byte[] message3 = new byte[50];
        Arrays.fill(message3, (byte) 0xdd);
        assertThat(hex.formatHex(hmac.mac(key3, message3, 0, 50)))
                .isEqualTo("773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
        byte[] key4 = hex.parseHex("0102030405060708090a0b0c0d0e0f10111213141516171819");
        byte[] message4 = new byte[50];
        Arrays.fill(message4, (byte) 0xcd);
        assertThat(hex.formatHex(hmac.mac(key4, message4, 0, 50)))
                .isEqualTo("82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b");
    }

    @Test
    void equalsTheJcesHmacForKeysAndMessagesOfManyLengthsOneAfterAnother() throws Exception {
        Random random = new Random(20);
        Mac jce = Mac.getInstance("HmacSHA256");
        for (int keyLength : new int[] {1, 31, 32, 33, 63, 64}) {
            for (int length : new int[] {0, 1, 18, 55, 56, 63, 64, 65, 1000, 4096}) {
                byte[] key = new byte[keyLength];
                random.nextBytes(key);
                byte[] message = new byte[length + 7];
                random.nextBytes(message);
                jce.init(new SecretKeySpec(key, "HmacSHA256"));
                jce.update(message, 3, length);
                assertThat(hmac.mac(key, message, 3, length)).isEqualTo(jce.doFinal());
            }
        }
    }

    @Test
    void aKeyLongerThanABlockIsRefused() {
        assertThatThrownBy(() -> hmac.mac(new byte[65], new byte[1], 0, 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
