package io.coffer.gateway.http;

import io.coffer.gateway.auth.AuthResult;
import io.coffer.gateway.auth.SignedRequest;
import io.coffer.gateway.auth.VerifyingInputStream;
import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.NameRules;
import io.coffer.gateway.s3.S3Operation;
import io.coffer.gateway.s3.S3Request;
import io.coffer.gateway.s3.S3Router;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A request head made into the {@link S3Request} its action runs on, on the event loop: headers by lower-case name,
 * the target, the signature check, the route, the bucket and key name rules and, for an action that reads its body,
 * the {@link BodyPipe} and the {@link RequestBodyStack} over it. Each step records what it learnt in the
 * {@link Exchange} before the next may throw, so an error response and the access log name what was known.
 */
final class RequestPreparation {
    private RequestPreparation() {
    }

    /**
     * @param resumeReading what the body pipe calls once it has drained enough to take more of the body
     * @throws S3Exception the request is refused before its action runs
     */
    static S3Request prepare(S3Server server, Exchange ex, HttpRequest req, Runnable resumeReading) {
        Map<String, List<String>> headers = new HashMap<>();
        for (Map.Entry<String, String> h : req.headers()) {
            headers.computeIfAbsent(h.getKey().toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(h.getValue());
        }
        String host = req.headers().get(HttpHeaderNames.HOST);
        RequestTarget target = RequestTarget.parse(req.uri(), host, server.options().baseDomain());
        ex.addressed(target);
        SignedRequest signed = new SignedRequest(req.method().name(), target.decodedPath(), target.queryList(),
                headers, SignedRequest.rawPath(req.uri()),
                RequestTarget.virtualBucket(host, server.options().baseDomain()));
        AuthResult auth = server.verifier().verify(signed);
        ex.accessKeyId = auth.accessKeyId();
        Map<String, String> flat = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> h : headers.entrySet()) {
            flat.put(h.getKey(), String.join(",", h.getValue()));
        }
        auth.queryHeaders().forEach(flat::putIfAbsent);
        RequestBodyStack.stripAwsChunked(flat);
        Map<String, String> query = target.queryMap();
        query.keySet().removeAll(auth.authParams());
        S3Operation op = S3Router.route(req.method().name(), target.bucket(), target.key(), query, flat);
        ex.operation = op;
        if (op == S3Operation.NOT_IMPLEMENTED) {
            throw new S3Exception(S3ErrorCode.NOT_IMPLEMENTED);
        }
        if (target.bucket() != null) {
            NameRules.check(target.bucket());
        }
        NameRules.checkKey(target.key());
        long decodedLength = -1;
        InputStream body = InputStream.nullInputStream();
        S3Request.BodyChecks checks = S3Request.BodyChecks.NONE;
        if (RequestBodyStack.readsBody(op)) {
            RequestBodyStack stack = new RequestBodyStack(req, op, auth, flat);
            BodyPipe pipe = new BodyPipe(server.options().bodyBufferBytes(), resumeReading,
                    server.options().idleTimeout().toMillis(), server.requestBodyBufferHighWater());
            ex.pipe = pipe;
            if (ex.bodyComplete) {
                pipe.finish();
            }
            VerifyingInputStream verifying = stack.over(pipe);
            decodedLength = stack.decodedLength();
            body = verifying;
            checks = verifying::checksums;
        }
        return new S3Request(ex.requestId, req.method().name(), op, target.bucket(), target.key(), flat, query,
                auth.owner(), auth.accessKeyId(), body, decodedLength, checks, null);
    }
}
