package io.coffer.gateway.auth;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;

/**
 * The text a client signed for a header value. The HTTP decoder hands each byte over as one character
 * (ISO-8859-1). Clients send non-ASCII values two ways but sign the UTF-8 of the same characters: Apache
 * HttpClient (AWS SDK for Java) sends one ISO-8859-1 byte per character; botocore (boto3, aws-cli) and Go (rclone,
 * minio-go) send UTF-8. Bytes that are valid UTF-8 are read as UTF-8, any others as ISO-8859-1, so both verify.
 */
final class HeaderText {
    private HeaderText() {
    }

    static String signed(String value) {
        boolean ascii = true;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c > 0xff) {
                return value;
            }
            ascii &= c < 0x80;
        }
        if (ascii) {
            return value;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .decode(ByteBuffer.wrap(value.getBytes(StandardCharsets.ISO_8859_1))).toString();
        } catch (CharacterCodingException e) {
            return value;
        }
    }
}
