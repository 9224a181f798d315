package io.coffer.sdk.meta.jdbc;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.crypto.ChunkId;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How values are stored in columns: keys, prefixes and upload keys as the BLOB/bytea of their UTF-8 bytes (so the
 * database orders them bytewise, which is S3's order), chunk references as the concatenation of their 32-byte ids,
 * timestamps as epoch milliseconds ({@code Instant}s are truncated to milliseconds).
 */
final class Columns {
    private Columns() {
    }

    static long millis(Instant instant) {
        return instant == null ? System.currentTimeMillis() : instant.toEpochMilli();
    }

    /** The UTF-8 bytes of a key; {@code INVALID_ARGUMENT} for a string that is not valid Unicode. */
    static byte[] utf8(String s) {
        try {
            ByteBuffer buffer = StandardCharsets.UTF_8.newEncoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .encode(CharBuffer.wrap(s));
            byte[] out = new byte[buffer.remaining()];
            buffer.get(out);
            return out;
        } catch (CharacterCodingException e) {
            throw CofferException.invalid("key, prefix or delimiter is not valid Unicode");
        }
    }

    static String string(byte[] utf8) {
        return utf8 == null ? "" : new String(utf8, StandardCharsets.UTF_8);
    }

    static byte[] encodeRefs(List<ChunkId> ids) {
        byte[] out = new byte[ids.size() * ChunkId.LENGTH];
        for (int i = 0; i < ids.size(); i++) {
            ids.get(i).copyTo(out, i * ChunkId.LENGTH);
        }
        return out;
    }

    static List<ChunkId> decodeRefs(byte[] bytes) {
        if (bytes == null || bytes.length == 0) {
            return List.of();
        }
        if (bytes.length % ChunkId.LENGTH != 0) {
            throw CofferException.of(ErrorCode.INTERNAL_ERROR, "corrupt chunk reference list");
        }
        List<ChunkId> out = new ArrayList<>(bytes.length / ChunkId.LENGTH);
        for (int at = 0; at < bytes.length; at += ChunkId.LENGTH) {
            out.add(ChunkId.of(Arrays.copyOfRange(bytes, at, at + ChunkId.LENGTH)));
        }
        return out;
    }
}
