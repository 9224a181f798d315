package io.coffer.por.net;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.security.SecureRandom;

/** A client that writes whatever frames a test wants, to attack the server with. */
final class RawConnection implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private SessionMac mac;

    RawConnection(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** Runs the handshake with {@code key}; later {@link #sendSigned} frames carry valid MACs. */
    RawConnection handshake(byte[] key) throws IOException {
        byte[] nonce = new byte[SessionMac.NONCE_BYTES];
        new SecureRandom().nextBytes(nonce);
        sendRaw(Frames.body(MessageType.HELLO, nonce, null));
        Frames.Frame challenge = Frames.parse(readBody(), true);
        byte[] serverNonce = new byte[SessionMac.NONCE_BYTES];
        System.arraycopy(challenge.payload(), 0, serverNonce, 0, serverNonce.length);
        mac = SessionMac.client(key, nonce, serverNonce);
        mac.verify(challenge.type(), challenge.payload(), challenge.mac());
        sendSigned(MessageType.AUTH, new byte[0]);
        return this;
    }

    void sendSigned(MessageType type, byte[] payload) throws IOException {
        sendRaw(Frames.body(type, payload, mac.sign(type, payload)));
    }

    /** A length prefix and {@code body}. */
    void sendRaw(byte[] body) throws IOException {
        Frames.write(out, body);
    }

    /** Any bytes at all. */
    void sendBytes(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    byte[] readBody() throws IOException {
        return Frames.read(in, 1 << 24);
    }

    /** The next frame, its MAC checked. */
    Frames.Frame receiveSigned() throws IOException {
        Frames.Frame f = Frames.parse(readBody(), true);
        mac.verify(f.type(), f.payload(), f.mac());
        return f;
    }

    /** The error that ends a refused connection (unsigned before the session is open, signed after). */
    PorCodec.ErrorReply receiveError(boolean signed) throws IOException {
        Frames.Frame f = signed ? receiveSigned() : Frames.parse(readBody(), false);
        if (f.type() != MessageType.ERROR) {
            throw new AssertionError("expected an error, got " + f.type());
        }
        return PorCodec.readError(f.payload());
    }

    /** Whether the server closed the connection (end of stream within the read timeout). */
    boolean closedByServer() throws IOException {
        try {
            while (in.read() >= 0) {
                // drain whatever is left
            }
            return true;
        } catch (EOFException e) {
            return true;
        } catch (IOException e) {
            return e.getMessage() != null && e.getMessage().contains("reset");
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
