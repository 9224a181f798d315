package io.coffer.gateway.s3.acl;

import io.coffer.sdk.ObjectAttributes;
import java.util.Map;
import java.util.TreeMap;

/**
 * An object's ACL is kept among its stored headers under {@link #STORED_HEADER} ({@link AccessControlList#encode()}),
 * so it is sealed in the object's manifest or, once changed, in its version's attribute record, and a reindex restores
 * it; a private object stores nothing. The name is
 * reserved: it is never answered as a response header.
 */
public final class ObjectAcl {
    public static final String STORED_HEADER = ObjectAttributes.ACL_HEADER;

    private ObjectAcl() {
    }

    public static AccessControlList of(ObjectAttributes a) {
        String stored = a.headers().get(STORED_HEADER);
        return stored == null ? AccessControlList.PRIVATE : AccessControlList.decode(stored);
    }

    /** {@code a} with {@code acl} (private: none stored). */
    public static ObjectAttributes with(ObjectAttributes a, AccessControlList acl) {
        Map<String, String> headers = new TreeMap<>(a.headers());
        if (acl.equals(AccessControlList.PRIVATE)) {
            headers.remove(STORED_HEADER);
        } else {
            headers.put(STORED_HEADER, acl.encode());
        }
        return new ObjectAttributes(a.contentType(), a.userMetadata(), headers, a.checksums(), a.tags());
    }
}
