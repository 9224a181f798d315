package io.coffer.gateway.s3;

import io.coffer.gateway.auth.Credential;
import io.coffer.gateway.auth.PostPolicy;
import io.coffer.gateway.auth.PostPolicySignature;
import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.acl.PublicAccess;
import io.coffer.gateway.s3.headers.FeatureHeaders;
import io.coffer.gateway.s3.post.LengthRangeInputStream;
import io.coffer.gateway.s3.post.MultipartForm;
import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.Bucket;
import io.coffer.sdk.Coffer;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * POST Object: a browser form upload ({@code multipart/form-data} to the bucket's URL). The fields before the file
 * (at most 64 KiB together) are read, the policy's signature checked ({@link PostPolicySignature}) and its conditions
 * ({@link PostPolicy}); then the file part is streamed, never buffered whole, through {@link PutObjectHandler} as a
 * PutObject whose headers are the form's fields ({@code acl} as {@code x-amz-acl}; {@code ${filename}} in the key
 * replaced by the file's name). Who may upload is decided as for PutObject: the signer's tenant owns the bucket, or
 * the bucket grants WRITE publicly. Answers 303 to {@code success_action_redirect}, else
 * {@code success_action_status} 200, 201 (a {@code PostResponse} document) or 204 (the default).
 */
public final class PostObjectHandler implements S3ActionHandler {
    private static final int MAX_FIELDS_BYTES = 64 * 1024;
    /** Form fields stored as the object's headers, as PutObject takes them. */
    private static final Set<String> OBJECT_FIELDS = Set.of("content-type", "cache-control", "content-disposition",
            "content-encoding", "content-language", "expires", "x-amz-storage-class", "x-amz-server-side-encryption",
            "x-amz-website-redirect-location", "x-amz-server-side-encryption-aws-kms-key-id",
            "x-amz-server-side-encryption-customer-algorithm", "x-amz-server-side-encryption-customer-key",
            "x-amz-server-side-encryption-customer-key-md5", "x-amz-object-lock-mode",
            "x-amz-object-lock-retain-until-date", "x-amz-object-lock-legal-hold");

    private final Coffer coffer;
    private final PutObjectHandler put;
    private final PublicAccess access;
    private final PostPolicySignature signature;
    private final Clock clock;

    public PostObjectHandler(Coffer coffer, PutObjectHandler put, PublicAccess access, PostPolicySignature signature,
                             Clock clock) {
        this.coffer = coffer;
        this.put = put;
        this.access = access;
        this.signature = signature;
        this.clock = clock;
    }

    @Override
    public S3Response handle(S3Request r) throws IOException {
        MultipartForm form = new MultipartForm(r.body(), MultipartForm.boundary(r.header("content-type")));
        Map<String, String> fields = new TreeMap<>();
        MultipartForm.Part file = null;
        int fieldBytes = 0;
        for (MultipartForm.Part p = form.next(); p != null; p = form.next()) {
            String name = p.name().toLowerCase(Locale.ROOT);
            if (name.equals("file")) {
                file = p;
                break;
            }
            byte[] value = p.body().readNBytes(MAX_FIELDS_BYTES + 1 - fieldBytes);
            fieldBytes += value.length + name.length();
            if (fieldBytes > MAX_FIELDS_BYTES) {
                throw new S3Exception(S3ErrorCode.MAX_POST_PRE_DATA_LENGTH_EXCEEDED_ERROR);
            }
            if (fields.put(name, new String(value, StandardCharsets.UTF_8)) != null) {
                throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "The form field " + name + " appears twice.");
            }
        }
        if (file == null) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "POST requires exactly one file upload per request.");
        }
        String keyField = fields.get("key");
        if (keyField == null || keyField.isEmpty()) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Bucket POST must contain a field named 'key'.  If"
                    + " it is specified, please check the order of the fields.");
        }
        Bucket bucket = coffer.headBucket(r.bucket());
        fields.put("bucket", r.bucket());
        Credential signer = signature.verify(fields);
        PostPolicy policy = fields.containsKey("policy") ? PostPolicy.parse(fields.get("policy")) : null;
        String key = keyField.replace("${filename}", file.filename() == null ? "" : file.filename());
        if (policy != null) {
            // the policy's $key conditions hold for the key as stored, ${filename} replaced (S3; ceph/s3-tests
            // test_post_object_set_key_from_filename); the signature above covers only the policy document
            Map<String, String> checked = new TreeMap<>(fields);
            checked.put("key", key);
            policy.check(clock.instant(), checked);
        }
        NameRules.checkKey(key);
        S3Request upload = new S3Request(r.requestId(), "PUT", S3Operation.PUT_OBJECT, r.bucket(), key,
                objectHeaders(fields), Map.of(), signer == null ? null : signer.owner(),
                signer == null ? null : signer.accessKeyId(),
                new LengthRangeInputStream(file.body(), policy == null ? 0 : policy.minLength(),
                        policy == null ? Long.MAX_VALUE : policy.maxLength()),
                -1, S3Request.BodyChecks.NONE, bucket);
        if (signer == null || !bucket.owner().equals(signer.owner())) {
            access.checkGrantee(upload, bucket);
        }
        FeatureHeaders.check(upload);
        S3Response stored = put.handle(upload);
        return respond(fields, r.bucket(), key, stored);
    }

    private static Map<String, String> objectHeaders(Map<String, String> fields) {
        Map<String, String> headers = new TreeMap<>();
        for (Map.Entry<String, String> f : fields.entrySet()) {
            String name = f.getKey();
            if (OBJECT_FIELDS.contains(name) || name.startsWith("x-amz-meta-") || name.startsWith("x-amz-grant-")) {
                headers.put(name, f.getValue());
            } else if (name.equals("acl")) {
                headers.put("x-amz-acl", f.getValue());
            } else if (name.equals("tagging")) {
                throw new S3Exception(S3ErrorCode.NOT_IMPLEMENTED, "Tags on POST Object are not offered by this"
                        + " gateway.");
            }
        }
        return headers;
    }

    private static S3Response respond(Map<String, String> fields, String bucket, String key, S3Response stored) {
        String etag = stored.headers().get("ETag");
        String location = "/" + bucket + "/" + URLEncoder.encode(key, StandardCharsets.UTF_8).replace("+", "%20")
                .replace("%2F", "/");
        String redirect = fields.getOrDefault("success_action_redirect", fields.get("redirect"));
        if (redirect != null && !redirect.isEmpty()) {
            try {
                URI target = new URI(redirect);
                if (target.getScheme() != null) {
                    String query = "bucket=" + URLEncoder.encode(bucket, StandardCharsets.UTF_8)
                            + "&key=" + URLEncoder.encode(key, StandardCharsets.UTF_8)
                            + "&etag=" + URLEncoder.encode(etag, StandardCharsets.UTF_8);
                    String sep = target.getRawQuery() == null ? "?" : "&";
                    return withObjectHeaders(S3Response.empty(303).header("Location", redirect + sep + query),
                            stored);
                }
            } catch (URISyntaxException e) {
                // S3 ignores a redirect that is no URL and answers by success_action_status
            }
        }
        String status = fields.getOrDefault("success_action_status", "204");
        S3Response resp = switch (status) {
            case "200" -> S3Response.empty(200);
            // S3's PostResponse carries no namespace (clients read its elements unqualified)
            case "201" -> S3Response.xml(201, XmlResponseWriter.plainDocument("PostResponse")
                    .element("Location", location).element("Bucket", bucket).element("Key", key)
                    .element("ETag", etag).toBytes());
            default -> S3Response.empty(204);
        };
        return withObjectHeaders(resp.header("Location", location), stored);
    }

    private static S3Response withObjectHeaders(S3Response resp, S3Response stored) {
        stored.headers().forEach((name, value) -> {
            if (name.equals("ETag") || name.equals("x-amz-version-id")) {
                resp.header(name, value);
            }
        });
        return resp;
    }
}
