package io.coffer.gateway.xml;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * Writes an S3 response document element by element through the JDK's streaming {@link XMLStreamWriter}, which
 * escapes text and attribute values. Listings are bounded (1000 entries) so the document is built in memory.
 *
 * <p>The document is always well-formed XML 1.0: a character it cannot carry exactly (see {@link #carries}) is written
 * percent-encoded as its UTF-8 bytes, for example U+0001 as {@code %01}. Listings avoid that by switching to
 * encoding-type=url for the whole page.
 */
public final class XmlResponseWriter {
    public static final String S3_NAMESPACE = "http://s3.amazonaws.com/doc/2006-03-01/";
    private static final String XSI_NAMESPACE = "http://www.w3.org/2001/XMLSchema-instance";
    private static final XMLOutputFactory FACTORY = XMLOutputFactory.newInstance();
    private static final DateTimeFormatter ISO_MILLIS =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private static final String HEX = "0123456789ABCDEF";

    private final ByteArrayOutputStream out = new ByteArrayOutputStream(512);
    private final XMLStreamWriter writer;

    private XmlResponseWriter(String root, String namespace) {
        try {
            writer = FACTORY.createXMLStreamWriter(out, "UTF-8");
            writer.writeStartDocument("UTF-8", "1.0");
            writer.writeStartElement(root);
            if (namespace != null) {
                writer.writeDefaultNamespace(namespace);
            }
        } catch (XMLStreamException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A document whose root element carries the S3 namespace. */
    public static XmlResponseWriter document(String root) {
        return new XmlResponseWriter(root, S3_NAMESPACE);
    }

    /** A document without a namespace (S3's {@code <Error>} has none). */
    public static XmlResponseWriter plainDocument(String root) {
        return new XmlResponseWriter(root, null);
    }

    public XmlResponseWriter start(String name) {
        try {
            writer.writeStartElement(name);
        } catch (XMLStreamException e) {
            throw new IllegalStateException(e);
        }
        return this;
    }

    /** An element with an {@code xsi:type} attribute, as the grantees of S3's ACL documents carry. */
    public XmlResponseWriter startTyped(String name, String xsiType) {
        try {
            writer.writeStartElement(name);
            writer.writeNamespace("xsi", XSI_NAMESPACE);
            writer.writeAttribute("xsi", XSI_NAMESPACE, "type", xsiType);
        } catch (XMLStreamException e) {
            throw new IllegalStateException(e);
        }
        return this;
    }

    public XmlResponseWriter end() {
        try {
            writer.writeEndElement();
        } catch (XMLStreamException e) {
            throw new IllegalStateException(e);
        }
        return this;
    }

    /** Text inside the current element. */
    public XmlResponseWriter text(String value) {
        try {
            writer.writeCharacters(xmlSafe(value));
        } catch (XMLStreamException e) {
            throw new IllegalStateException(e);
        }
        return this;
    }

    /**
     * True when every character of {@code s} reaches an XML 1.0 parser unchanged: the Char production without the
     * C0 controls, and without CR, which parsers turn into LF.
     */
    public static boolean carries(String s) {
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            if (!carried(c)) {
                return false;
            }
            i += Character.charCount(c);
        }
        return true;
    }

    private static boolean carried(int c) {
        return c == 0x9 || c == 0xA || c >= 0x20 && c <= 0xD7FF || c >= 0xE000 && c <= 0xFFFD
                || c >= 0x10000 && c <= 0x10FFFF;
    }

    private static String xmlSafe(String s) {
        if (carries(s)) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            if (carried(c)) {
                sb.appendCodePoint(c);
            } else {
                for (byte b : new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8)) {
                    sb.append('%').append(HEX.charAt((b >> 4) & 0xF)).append(HEX.charAt(b & 0xF));
                }
            }
            i += Character.charCount(c);
        }
        return sb.toString();
    }

    /** A text element; a null value writes nothing. */
    public XmlResponseWriter element(String name, String value) {
        if (value == null) {
            return this;
        }
        try {
            writer.writeStartElement(name);
            writer.writeCharacters(xmlSafe(value));
            writer.writeEndElement();
        } catch (XMLStreamException e) {
            throw new IllegalStateException(e);
        }
        return this;
    }

    public XmlResponseWriter element(String name, long value) {
        return element(name, Long.toString(value));
    }

    public XmlResponseWriter element(String name, boolean value) {
        return element(name, Boolean.toString(value));
    }

    /** A timestamp as S3 writes it in XML: ISO-8601 with milliseconds, for example 2009-10-12T17:50:30.000Z. */
    public XmlResponseWriter element(String name, Instant value) {
        return element(name, value == null ? null : iso(value));
    }

    public static String iso(Instant t) {
        return ISO_MILLIS.format(t);
    }

    /** Closes every open element and returns the UTF-8 document. */
    public byte[] toBytes() {
        try {
            writer.writeEndDocument();
            writer.close();
        } catch (XMLStreamException e) {
            throw new IllegalStateException(e);
        }
        return out.toByteArray();
    }

    public String toXmlString() {
        return new String(toBytes(), StandardCharsets.UTF_8);
    }
}
