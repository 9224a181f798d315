package io.coffer.gateway.s3.headers;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.S3Request;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.TagSets;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code x-amz-tagging} (PutObject, CreateMultipartUpload, CopyObject with {@code x-amz-tagging-directive: REPLACE}):
 * a URL query string of tags ({@code k1=v1&k2=v2}, form-encoded), checked as S3 checks object tags.
 */
public final class TaggingHeader {
    public static final String TAGGING = "x-amz-tagging";
    public static final String DIRECTIVE = "x-amz-tagging-directive";

    private TaggingHeader() {
    }

    /** The tags the request names, checked ({@code InvalidTag}); empty when the header is absent or empty. */
    public static Map<String, String> tags(S3Request r) {
        String header = r.header(TAGGING);
        List<TagSets.Tag> tags = new ArrayList<>();
        if (header != null && !header.isBlank()) {
            for (String pair : header.trim().split("&", -1)) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String key = eq < 0 ? pair : pair.substring(0, eq);
                String value = eq < 0 ? "" : pair.substring(eq + 1);
                tags.add(new TagSets.Tag(decode(key), decode(value)));
            }
        }
        return TagSets.objectTags(tags);
    }

    /**
     * CopyObject's tags: null to copy the source's ({@code COPY}, the default), the header's for {@code REPLACE};
     * another directive is InvalidArgument.
     */
    public static Map<String, String> copyTags(S3Request r) {
        String directive = r.header(DIRECTIVE);
        if (directive == null || directive.trim().equals("COPY")) {
            return null;
        }
        if (!directive.trim().equals("REPLACE")) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT,
                    "Unknown tagging directive.");
        }
        return tags(r);
    }

    /** The form-decoded text; a malformed escape is an invalid tag. */
    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw CofferException.of(ErrorCode.INVALID_TAG,
                    "The x-amz-tagging header is not URL-encoded correctly");
        }
    }
}
