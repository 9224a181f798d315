package io.coffer.gateway.xml;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Parses S3 request bodies into {@link XmlElement} trees.
 *
 * <p>Why the JDK's StAX: it is a real, conformant XML parser that ships with every JDK (no extra dependency), and it
 * can be locked down completely: DTDs and external entities are off (no XXE, no entity expansion bombs), the body is
 * read with a byte cap before parsing, and element depth and count are capped while parsing. Anything not
 * well-formed, or bigger than the caps, is S3's {@code MalformedXML}.
 */
public final class XmlRequestReader {
    private static final int MAX_DEPTH = 16;
    private static final XMLInputFactory FACTORY = newFactory();

    private final int maxBytes;
    private final int maxElements;

    public XmlRequestReader(int maxBytes, int maxElements) {
        this.maxBytes = maxBytes;
        this.maxElements = maxElements;
    }

    private static XMLInputFactory newFactory() {
        XMLInputFactory f = XMLInputFactory.newFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, false);
        f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
        f.setProperty(XMLInputFactory.IS_COALESCING, true);
        return f;
    }

    /** Reads at most the cap from {@code body} and parses it; throws MalformedXML (an S3Exception) otherwise. */
    public XmlElement read(InputStream body, String expectedRoot) throws IOException {
        return parse(readBytes(body), expectedRoot);
    }

    /** Reads the whole body, at most the cap (MalformedXML beyond it), for callers that check its digest first. */
    public byte[] readBytes(InputStream body) throws IOException {
        byte[] bytes = body.readNBytes(maxBytes + 1);
        if (bytes.length > maxBytes) {
            throw new S3Exception(S3ErrorCode.MALFORMED_XML, "The XML you provided was larger than the maximum of "
                    + maxBytes + " bytes.");
        }
        if (body.read() >= 0) {
            throw new S3Exception(S3ErrorCode.MALFORMED_XML);
        }
        return bytes;
    }

    public XmlElement parse(byte[] bytes, String expectedRoot) {
        if (bytes.length == 0) {
            throw new S3Exception(S3ErrorCode.MALFORMED_XML);
        }
        XMLStreamReader r = null;
        try {
            r = FACTORY.createXMLStreamReader(new ByteArrayInputStream(bytes));
            Deque<Builder> stack = new ArrayDeque<>();
            XmlElement root = null;
            int elements = 0;
            while (r.hasNext()) {
                int ev = r.next();
                switch (ev) {
                    case XMLStreamConstants.START_ELEMENT -> {
                        if (++elements > maxElements || stack.size() >= MAX_DEPTH) {
                            throw new S3Exception(S3ErrorCode.MALFORMED_XML);
                        }
                        stack.push(new Builder(r.getLocalName()));
                    }
                    case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> {
                        if (!stack.isEmpty()) {
                            stack.peek().text.append(r.getText());
                        }
                    }
                    case XMLStreamConstants.ENTITY_REFERENCE, XMLStreamConstants.DTD ->
                            throw new S3Exception(S3ErrorCode.MALFORMED_XML);
                    case XMLStreamConstants.END_ELEMENT -> {
                        Builder b = stack.pop();
                        XmlElement e = new XmlElement(b.name, b.text.toString(), b.children);
                        if (stack.isEmpty()) {
                            root = e;
                        } else {
                            stack.peek().children.add(e);
                        }
                    }
                    default -> {
                    }
                }
            }
            if (root == null || (expectedRoot != null && !root.name().equals(expectedRoot))) {
                throw new S3Exception(S3ErrorCode.MALFORMED_XML);
            }
            return root;
        } catch (XMLStreamException | RuntimeException e) {
            if (e instanceof S3Exception s) {
                throw s;
            }
            throw new S3Exception(S3ErrorCode.MALFORMED_XML, S3ErrorCode.MALFORMED_XML.defaultMessage(), e);
        } finally {
            if (r != null) {
                try {
                    r.close();
                } catch (XMLStreamException ignored) {
                    // nothing left to release: the input is an in-memory array
                }
            }
        }
    }

    private static final class Builder {
        final String name;
        final StringBuilder text = new StringBuilder();
        final List<XmlElement> children = new ArrayList<>();

        Builder(String name) {
            this.name = name;
        }
    }
}
