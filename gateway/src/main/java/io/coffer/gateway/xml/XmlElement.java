package io.coffer.gateway.xml;

import java.util.ArrayList;
import java.util.List;

/** A parsed request element: local name, trimmed-free text content and children in document order. */
public record XmlElement(String name, String text, List<XmlElement> children) {

    public XmlElement {
        children = List.copyOf(children);
    }

    /** The children with the given local name. */
    public List<XmlElement> all(String childName) {
        List<XmlElement> r = new ArrayList<>();
        for (XmlElement c : children) {
            if (c.name.equals(childName)) {
                r.add(c);
            }
        }
        return r;
    }

    /** The text of the first child with the given name, or null. */
    public String childText(String childName) {
        for (XmlElement c : children) {
            if (c.name.equals(childName)) {
                return c.text;
            }
        }
        return null;
    }
}
