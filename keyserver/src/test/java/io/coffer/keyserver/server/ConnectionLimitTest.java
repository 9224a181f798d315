package io.coffer.keyserver.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.keyserver.KeyServerFixture;
import io.coffer.keyserver.pki.KeyServerDirectory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One client identity cannot hold more than its share of HTTPS connections: requests on one more get 429. */
class ConnectionLimitTest {
    @TempDir
    static Path tmp;
    static KeyServerDirectory dir;

    @BeforeAll
    static void init() throws Exception {
        dir = KeyServerFixture.init(tmp.resolve("ks"), KeyServerInit.OprfAlgorithm.P256, "a", "b");
    }

    private static SSLSocket connect(KeyServer s, String client) throws Exception {
        SSLContext tls = KeyServerFixture.tls(dir, client, dir);
        SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket("localhost", s.httpsPort());
        socket.setSoTimeout(5000);
        socket.startHandshake();
        return socket;
    }

    /** Sends GET /health and returns the status line and body. */
    private static String health(SSLSocket socket) throws IOException {
        socket.getOutputStream().write("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int contentLength = -1;
        StringBuilder line = new StringBuilder();
        String status = null;
        for (int c; (c = in.read()) >= 0; ) {
            if (c == '\n') {
                String l = line.toString().strip();
                if (status == null) {
                    status = l;
                } else if (l.isEmpty()) {
                    break;
                } else if (l.toLowerCase().startsWith("content-length:")) {
                    contentLength = Integer.parseInt(l.substring(15).strip());
                }
                line.setLength(0);
            } else {
                line.append((char) c);
            }
        }
        head.write(in.readNBytes(Math.max(0, contentLength)));
        return status + "\n" + head.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aClientOverItsConnectionCapIsRefusedWith429WhileOthersAreServed() throws Exception {
        List<SSLSocket> open = new ArrayList<>();
        try (KeyServer s = KeyServer.builder().directory(dir.root()).httpsPort(0).udpPort(0).rateLimit("none")
                .workerThreads(1).maxConnectionsPerClient(2).start()) {
            for (int i = 0; i < 2; i++) {
                open.add(connect(s, "a"));
                assertThat(health(open.get(i))).startsWith("HTTP/1.1 200");
            }
            try (SSLSocket third = connect(s, "a")) {
                assertThat(health(third)).startsWith("HTTP/1.1 429")
                        .contains("CN=a already has 2 open connections");
            }
            try (SSLSocket other = connect(s, "b")) {
                assertThat(health(other)).startsWith("HTTP/1.1 200");
            }
            open.remove(0).close();
            assertThat(KeyServerFixture.eventually(() -> {
                try (SSLSocket again = connect(s, "a")) {
                    return health(again).startsWith("HTTP/1.1 200");
                } catch (Exception e) {
                    return false;
                }
            })).as("a closed connection frees its slot").isTrue();
        } finally {
            for (SSLSocket socket : open) {
                socket.close();
            }
        }
    }
}
