package io.coffer.gateway.http;

import io.coffer.gateway.auth.SigV4;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** A keep-alive HTTP/1.1 client on a plain socket that signs with SigV4, for hostile-input tests. */
final class RawClient implements AutoCloseable {
    static final DateTimeFormatter AMZ = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final String accessKey;
    private final String secret;
    /** Whether the last {@link #read} skipped a {@code 100 Continue} before its response. */
    boolean sawContinue;

    RawClient(int port, String accessKey, String secret) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        in = socket.getInputStream();
        out = socket.getOutputStream();
        this.accessKey = accessKey;
        this.secret = secret;
    }

    record Response(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /** Signed request head (header auth); path is the encoded path, query the raw query string (or ""). */
    static String signedHead(String method, String path, String query, Map<String, String> extraHeaders,
                             String payloadHash, String host, String accessKey, String secret, Instant now) {
        String amzDate = AMZ.format(now);
        Map<String, String> headers = new TreeMap<>();
        headers.put("host", host);
        headers.put("x-amz-date", amzDate);
        headers.put("x-amz-content-sha256", payloadHash);
        extraHeaders.forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), v));
        List<Map.Entry<String, String>> q = new ArrayList<>();
        if (!query.isEmpty()) {
            for (String p : query.split("&")) {
                int eq = p.indexOf('=');
                q.add(new AbstractMap.SimpleEntry<>(SigV4.percentDecode(eq < 0 ? p : p.substring(0, eq), true),
                        eq < 0 ? "" : SigV4.percentDecode(p.substring(eq + 1), true)));
            }
        }
        String date = amzDate.substring(0, 8);
        String scope = SigV4.scope(date, "us-east-1", "s3");
        String canonical = SigV4.canonicalRequest(method, SigV4.canonicalUri(SigV4.percentDecode(path, false)),
                SigV4.canonicalQuery(q), new TreeMap<>(headers), payloadHash);
        String sig = SigV4.sign(SigV4.signingKey(secret, date, "us-east-1", "s3"),
                SigV4.stringToSign(amzDate, scope, canonical));
        StringBuilder sb = new StringBuilder();
        sb.append(method).append(' ').append(path).append(query.isEmpty() ? "" : "?" + query).append(" HTTP/1.1\r\n");
        headers.forEach((k, v) -> sb.append(k).append(": ").append(v).append("\r\n"));
        sb.append("authorization: AWS4-HMAC-SHA256 Credential=").append(accessKey).append('/').append(scope)
                .append(",SignedHeaders=").append(String.join(";", headers.keySet())).append(",Signature=")
                .append(sig).append("\r\n");
        return sb.toString();
    }

    Response send(String method, String path, String query, Map<String, String> headers, byte[] body)
            throws IOException {
        String hash = SigV4.hex(SigV4.sha256().digest(body));
        return send(method, path, query, headers, body, hash);
    }

    Response send(String method, String path, String query, Map<String, String> headers, byte[] body,
                  String payloadHash) throws IOException {
        Map<String, String> h = new LinkedHashMap<>(headers);
        h.put("content-length", Integer.toString(body.length));
        String head = signedHead(method, path, query, h, payloadHash, "127.0.0.1:" + socket.getPort(), accessKey,
                secret, Instant.now());
        writeRaw((head + "\r\n").getBytes(StandardCharsets.UTF_8));
        writeRaw(body);
        return read(method.equals("HEAD"));
    }

    void writeRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    Response read(boolean head) throws IOException {
        String status = line();
        sawContinue = false;
        while (status.startsWith("HTTP/1.1 100")) {
            sawContinue = true;
            line();
            status = line();
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (String l = line(); !l.isEmpty(); l = line()) {
            int c = l.indexOf(':');
            headers.put(l.substring(0, c).trim().toLowerCase(Locale.ROOT), l.substring(c + 1).trim());
        }
        int code = Integer.parseInt(status.split(" ")[1]);
        byte[] body = new byte[0];
        if (!head && code != 204 && code != 304 && headers.containsKey("content-length")) {
            body = in.readNBytes(Integer.parseInt(headers.get("content-length")));
        }
        return new Response(code, headers, new String(body, StandardCharsets.UTF_8));
    }

    /** The next line the server sends (a status line when a response starts), without its CRLF. */
    String nextLine() throws IOException {
        return line();
    }

    /** True when the server closed the connection (EOF on read). */
    boolean closedByServer() throws IOException {
        try {
            return in.read() < 0;
        } catch (SocketException e) {
            return true;
        }
    }

    private String line() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) >= 0) {
            if (c == '\n') {
                break;
            }
            if (c != '\r') {
                b.write(c);
            }
        }
        if (c < 0 && b.size() == 0) {
            throw new EOFException("connection closed");
        }
        return b.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
