package io.coffer.sdk.deflate;

/**
 * One record of the side information: what the token stream leaves out and re-encoding needs, in stream order
 * (docs/FORMAT.md, "Partially decoded gzip"). Block records come before their tokens.
 */
sealed interface SideRecord {
    int END = 0x00;
    int MEMBER_START = 0x01;
    int STORED_BLOCK = 0x02;
    int FIXED_BLOCK = 0x03;
    int DYNAMIC_BLOCK = 0x04;
    int MEMBER_END = 0x05;
    int TRAILING_BYTES = 0x06;

    /** A gzip member's header, every byte as it came (RFC 1952 §2.3: magic to FHCRC). */
    record MemberStart(byte[] header) implements SideRecord {
    }

    /** A stored block: the padding bits after its 3 header bits, and LEN (NLEN is its complement, checked). */
    record StoredBlock(boolean last, int paddingBitCount, int paddingBits, int length) implements SideRecord {
    }

    record FixedBlock(boolean last) implements SideRecord {
    }

    /** A dynamic block: its header bits from HLIT to the last code length, exactly as written. */
    record DynamicBlock(boolean last, byte[] headerBits, int headerBitCount) implements SideRecord {
    }

    /** The padding bits after a member's last block, and its trailer (CRC32, ISIZE) as it came. */
    record MemberEnd(int paddingBitCount, int paddingBits, byte[] trailer) implements SideRecord {
    }

    /** Bytes after the last member that are not a gzip member (zero padding, garbage), as they came. */
    record TrailingBytes(byte[] bytes) implements SideRecord {
    }

    record End() implements SideRecord {
    }
}
