package io.coffer.gateway.s3.headers;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * User metadata values as S3 keeps them: RFC 2047 encoded-words ({@code =?charset?B|Q?text?=}) in a request header
 * are decoded before storing, and a value that is not printable US-ASCII is returned as one
 * {@code =?UTF-8?B?...?=} encoded-word, because a header carries only ISO-8859-1 bytes and clients read non-ASCII
 * bytes differently. A raw byte outside US-ASCII arrives as its ISO-8859-1 character, as it does on S3.
 */
public final class EncodedWords {
    /** charset (an RFC 2231 {@code *language} suffix allowed), B or Q, then text without '?' or white space. */
    private static final Pattern WORD = Pattern.compile("=\\?([^?\\s*]+)(?:\\*[^?\\s]*)?\\?([bBqQ])\\?([^?\\s]*)\\?=");
    private static final Pattern BLANK = Pattern.compile("[ \\t\\r\\n]+");

    private EncodedWords() {
    }

    /**
     * The value a client meant: each well-formed encoded-word decoded, the white space between adjacent ones dropped
     * and adjacent words of one charset decoded together, as a character may be split between them (RFC 2047
     * section 6.2); a word whose charset Java lacks or whose text does not decode stays as it is.
     */
    public static String decode(String value) {
        if (!value.contains("=?")) {
            return value;
        }
        StringBuilder out = new StringBuilder(value.length());
        Run run = null;
        int copied = 0;
        Matcher m = WORD.matcher(value);
        while (m.find()) {
            Charset charset = charset(m.group(1));
            byte[] bytes = charset == null ? null
                    : m.group(2).equalsIgnoreCase("B") ? base64(m.group(3)) : quoted(m.group(3));
            if (bytes == null) {
                continue;
            }
            String between = value.substring(copied, m.start());
            boolean adjacent = run != null && BLANK.matcher(between).matches();
            if (adjacent && run.charset.equals(charset)) {
                run.bytes.writeBytes(bytes);
                run.end = m.end();
            } else {
                boolean decoded = run != null && run.appendTo(out, value);
                if (!(adjacent && decoded)) {
                    out.append(between);
                }
                run = new Run(charset, m.start(), m.end());
                run.bytes.writeBytes(bytes);
            }
            copied = m.end();
        }
        if (run != null) {
            run.appendTo(out, value);
        }
        return out.append(value, copied, value.length()).toString();
    }

    /** The value as a header can carry it: as it is when printable US-ASCII, else one UTF-8 B encoded-word. */
    public static String encode(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                return "=?UTF-8?B?" + Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)) + "?=";
            }
        }
        return value;
    }

    private static Charset charset(String name) {
        try {
            return Charset.forName(name);
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
            return null;
        }
    }

    private static byte[] base64(String text) {
        try {
            return Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** RFC 2047's Q: '_' is a space, =XX a byte in hex, other printable ASCII itself. */
    private static byte[] quoted(String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '_') {
                out.write(' ');
            } else if (c == '=') {
                if (i + 2 >= text.length()) {
                    return null;
                }
                int hi = Character.digit(text.charAt(i + 1), 16);
                int lo = Character.digit(text.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    return null;
                }
                out.write(hi << 4 | lo);
                i += 2;
            } else if (c > 0x20 && c < 0x7f) {
                out.write(c);
            } else {
                return null;
            }
        }
        return out.toByteArray();
    }

    /** Adjacent encoded-words of one charset: their bytes, and where they stand in the value. */
    private static final class Run {
        final Charset charset;
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final int start;
        int end;

        Run(Charset charset, int start, int end) {
            this.charset = charset;
            this.start = start;
            this.end = end;
        }

        /** Appends the decoded text, or the words as they stand when their bytes are not text in the charset. */
        boolean appendTo(StringBuilder out, String value) {
            try {
                out.append(charset.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(bytes.toByteArray())));
                return true;
            } catch (CharacterCodingException e) {
                out.append(value, start, end);
                return false;
            }
        }
    }
}
