package io.coffer.sdk.blob;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.http.client.config.RequestConfig;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpPut;
import org.apache.http.config.RegistryBuilder;
import org.apache.http.config.SocketConfig;
import org.apache.http.conn.socket.ConnectionSocketFactory;
import org.apache.http.conn.socket.PlainConnectionSocketFactory;
import org.apache.http.conn.ssl.SSLConnectionSocketFactory;
import org.apache.http.entity.AbstractHttpEntity;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.impl.conn.PoolingHttpClientConnectionManager;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * The HTTP client that sends {@link DirectRequests}' PUTs, Apache HttpClient 4 used directly: each body goes to the
 * socket in one write (the JDK then passes it on in 128 KiB pieces). The SDK's Apache client copies a body through
 * a 4 KiB buffer into a 4 KiB socket write each (its entity wraps the content in an {@code InputStreamEntity}, and it
 * offers no hook for plain-http sockets): about 2,000 system calls per 8 MiB pack; this way the upload threads spend
 * 28 % less CPU (docs/BENCHMARKS.md, "Levers tried (issue 23)", put23c). Its own connection pool, with the store's
 * limits and timeouts, the JVM's proxy and TLS settings as the SDK's client takes them; no retries (the caller falls
 * back to the SDK, which retries).
 */
final class WholeBodyPuts implements AutoCloseable {
    private final CloseableHttpClient client;

    WholeBodyPuts(Duration connectionTimeout, Duration socketTimeout, int maxConnections) {
        PoolingHttpClientConnectionManager pool = new PoolingHttpClientConnectionManager(
                RegistryBuilder.<ConnectionSocketFactory>create()
                        .register("http", PlainConnectionSocketFactory.getSocketFactory())
                        .register("https", SSLConnectionSocketFactory.getSystemSocketFactory())
                        .build());
        pool.setMaxTotal(maxConnections);
        pool.setDefaultMaxPerRoute(maxConnections);
        int socketMillis = (int) Math.min(Integer.MAX_VALUE, socketTimeout.toMillis());
        pool.setDefaultSocketConfig(SocketConfig.custom().setSoTimeout(socketMillis).setTcpNoDelay(true).build());
        int connectMillis = (int) Math.min(Integer.MAX_VALUE, connectionTimeout.toMillis());
        client = HttpClients.custom()
                .useSystemProperties() // proxies from the JVM's properties, as the SDK's client
                .setConnectionManager(pool)
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setConnectTimeout(connectMillis)
                        .setConnectionRequestTimeout(connectMillis)
                        .setSocketTimeout(socketMillis)
                        .setExpectContinueEnabled(false)
                        .setRedirectsEnabled(false)
                        .setContentCompressionEnabled(false)
                        .build())
                .disableAutomaticRetries()
                .disableRedirectHandling()
                .disableCookieManagement()
                .disableAuthCaching()
                .disableContentCompression()
                .disableConnectionState()
                .build();
    }

    /**
     * Sends {@code signed} (a signed PUT, its headers final) with {@code body}'s remaining bytes; true once the
     * server answered 2xx. The answer's body is read to its end so that the connection goes back to the pool.
     */
    boolean put(SdkHttpRequest signed, ByteBuffer body) throws IOException {
        HttpPut put = new HttpPut(signed.getUri());
        for (Map.Entry<String, List<String>> header : signed.headers().entrySet()) {
            // the entity gives the length (a second Content-Length is refused); Host stays as signed
            if (!header.getKey().equalsIgnoreCase("Content-Length")) {
                for (String value : header.getValue()) {
                    put.addHeader(header.getKey(), value);
                }
            }
        }
        put.setEntity(new BufferEntity(body));
        try (CloseableHttpResponse response = client.execute(put)) {
            if (response.getEntity() != null) {
                try (InputStream answer = response.getEntity().getContent()) {
                    answer.transferTo(OutputStream.nullOutputStream());
                }
            }
            int status = response.getStatusLine().getStatusCode();
            return status >= 200 && status < 300;
        }
    }

    @Override
    public void close() {
        try {
            client.close();
        } catch (IOException e) {
            // only the pool's sockets failed to close: nothing is left to undo
        }
    }

    /** A buffer's remaining bytes as one write (a heap buffer's array as it is, no copy). */
    static final class BufferEntity extends AbstractHttpEntity {
        static final int SLICE = 256 << 10;
        private final ByteBuffer body;

        BufferEntity(ByteBuffer body) {
            this.body = body.duplicate();
        }

        @Override
        public boolean isRepeatable() {
            return true;
        }

        @Override
        public long getContentLength() {
            return body.remaining();
        }

        @Override
        public InputStream getContent() {
            return new ByteBufferInputStream(body);
        }

        @Override
        public void writeTo(OutputStream out) throws IOException {
            ByteBuffer b = body.duplicate();
            if (b.hasArray()) {
                out.write(b.array(), b.arrayOffset() + b.position(), b.remaining());
            } else {
                byte[] slice = new byte[Math.min(SLICE, b.remaining())];
                while (b.hasRemaining()) {
                    int n = Math.min(slice.length, b.remaining());
                    b.get(slice, 0, n);
                    out.write(slice, 0, n);
                }
            }
            out.flush();
        }

        @Override
        public boolean isStreaming() {
            return false;
        }
    }
}
