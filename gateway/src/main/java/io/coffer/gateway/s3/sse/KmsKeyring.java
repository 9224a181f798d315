package io.coffer.gateway.s3.sse;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.keyserver.pki.SecretFile;
import io.coffer.sdk.KmsKey;
import io.coffer.sdk.ObjectAttributes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The keys SSE-KMS requests name, from a local file ({@code kms-keyring}): one {@code KEY-ID BASE64-32-BYTES} per
 * line, blank lines and {@code #} comments skipped, mode 0600 as the master key file. A client names a key by its id
 * as the file has it (a bare id such as {@code testkey-1}, or {@code alias/NAME}), or by an ARN whose resource part
 * is that id ({@code arn:aws:kms:REGION:ACCOUNT:key/ID} is {@code ID}, {@code ...:alias/NAME} is {@code alias/NAME});
 * region and account are not checked. A request with {@code aws:kms} and no key id gets the entry
 * {@code alias/aws/s3}, S3's name for the default key, when the file has one (docs/OPERATIONS.md, "SSE-KMS keyring").
 * Keys are never logged: errors name the file and the line, never its contents.
 */
public final class KmsKeyring implements KmsKeySource {
    /** S3's alias of the key SSE-KMS uses when a request names none. */
    public static final String DEFAULT_ID = "alias/aws/s3";
    /** A gateway without a keyring: every SSE-KMS request is refused. */
    public static final KmsKeyring NONE = new KmsKeyring(Map.of(), false);
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9/_.:-]{0,255}");
    private static final Pattern ARN = Pattern.compile("arn:aws[a-z-]*:kms:[^:]*:[^:]*:((?:key|alias)/.+)");
    private static final int MAX_LINES = 10_000;

    private final Map<String, KmsKey> keys;
    private final boolean configured;

    private KmsKeyring(Map<String, KmsKey> keys, boolean configured) {
        this.keys = keys;
        this.configured = configured;
    }

    /** Reads {@code file}; IOException with the line (never its key) for a file that is not a keyring. */
    public static KmsKeyring load(Path file) throws IOException {
        SecretFile.checkPrivate(file, "KMS keyring file");
        return parse(Files.readAllLines(file, StandardCharsets.UTF_8), file.toString());
    }

    /** The keyring of these lines ({@code name}: where they come from, for errors); as {@link #load} reads a file. */
    public static KmsKeyring parse(List<String> lines, String name) throws IOException {
        if (lines.size() > MAX_LINES) {
            throw new IOException("KMS keyring file " + name + " has more than " + MAX_LINES + " lines");
        }
        Map<String, KmsKey> keys = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String where = "KMS keyring file " + name + ", line " + (i + 1);
            String[] parts = line.split("\\s+");
            if (parts.length != 2 || !ID.matcher(parts[0]).matches() || parts[0].startsWith("arn:")) {
                throw new IOException(where + ": expected 'KEY-ID BASE64-KEY' (an id of letters, digits and"
                        + " / _ . : -, not an ARN)");
            }
            byte[] raw;
            try {
                raw = java.util.Base64.getDecoder().decode(parts[1]);
            } catch (IllegalArgumentException e) {
                throw new IOException(where + ": the key is not base64");
            }
            if (raw.length != KmsKey.LENGTH) {
                throw new IOException(where + ": the key is " + raw.length + " bytes, not " + KmsKey.LENGTH);
            }
            if (keys.putIfAbsent(parts[0], KmsKey.of(parts[0], raw)) != null) {
                throw new IOException(where + ": key id " + parts[0] + " appears twice");
            }
        }
        if (keys.isEmpty()) {
            throw new IOException("KMS keyring file " + name + " holds no keys");
        }
        return new KmsKeyring(Collections.unmodifiableMap(keys), true);
    }

    @Override
    public boolean configured() {
        return configured;
    }

    @Override
    public void checkWritable(String requested) {
        forWrite(requested);
    }

    /** As {@link #forWrite(String)}: a keyring key serves every bucket, so it keeps no data-key records. */
    @Override
    public KmsKey forWrite(String requested, DataKeyRecords records) {
        return forWrite(requested);
    }

    /**
     * As {@link #forRead(String)} for the stamped key id; an object stored through a KMS: 400 KMS.NotFoundException.
     */
    @Override
    public KmsKey forRead(ObjectAttributes attributes) {
        String id = KmsKey.keyIdOf(attributes);
        if (KmsKey.wrappedDataKeyOf(attributes) != null) {
            requireConfigured();
            throw new S3Exception(S3ErrorCode.KMS_NOT_FOUND, "The object was stored under a data key of KMS key " + id
                    + "; this gateway has a keyring, not a KMS.");
        }
        return forRead(id);
    }

    /**
     * The key a request names ({@code requested}: its key id header, null for none: the default key). 501
     * NotImplemented without a keyring; 400 KMS.NotFoundException for an id (or the default) it does not hold.
     */
    public KmsKey forWrite(String requested) {
        requireConfigured();
        String id = requested == null ? DEFAULT_ID : canonicalId(requested.trim());
        KmsKey key = keys.get(id);
        if (key == null) {
            throw new S3Exception(S3ErrorCode.KMS_NOT_FOUND, requested == null
                    ? "No key id was given and the keyring has no default key (" + DEFAULT_ID + ")."
                    : "Invalid keyId " + requested.trim());
        }
        return key;
    }

    /**
     * The key an object stored under key id {@code id} needs: 501 NotImplemented without a keyring, 400
     * KMS.NotFoundException when the keyring no longer holds it (the object is kept, readable again once it does).
     */
    public KmsKey forRead(String id) {
        requireConfigured();
        KmsKey key = keys.get(id);
        if (key == null) {
            throw new S3Exception(S3ErrorCode.KMS_NOT_FOUND, "The object was stored under key id " + id
                    + ", which the gateway's keyring does not hold.");
        }
        return key;
    }

    /** The keyring's id for what a client sends: an ARN's {@code key/ID} is {@code ID}, its alias the alias. */
    static String canonicalId(String requested) {
        Matcher arn = ARN.matcher(requested);
        if (!arn.matches()) {
            return requested;
        }
        String resource = arn.group(1);
        return resource.startsWith("key/") ? resource.substring("key/".length()) : resource;
    }

    private void requireConfigured() {
        if (!configured) {
            throw new S3Exception(S3ErrorCode.NOT_IMPLEMENTED, "Server side encryption specified but KMS is not"
                    + " configured (this gateway has no kms-keyring).");
        }
    }

    @Override
    public String toString() {
        return "KmsKeyring" + keys.keySet();
    }
}
