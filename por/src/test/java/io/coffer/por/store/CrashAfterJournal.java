package io.coffer.por.store;

import io.coffer.por.net.MessageType;
import io.coffer.por.net.PorCodec;
import io.coffer.por.net.ServerParameters;
import io.coffer.por.server.PorServer;
import io.coffer.por.server.SealedLevel;
import io.coffer.por.server.SealedVectors;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Makes the journal of a {@link JournaledPorServer} look as a crash right after one call was journaled leaves it:
 * the proxy passes every call through, keeps the journal's segments as they were before the first call of
 * {@code type} (for REBUILD_C the proxy answers PACES_PART with no, so that the client sends one), and
 * {@link #rewindJournal} (with the server closed) puts back those segments, the newest with the call's record appended. The files then hold the call's changes, whole or (after a test garbles them) in part: what
 * the replay must cope with.
 */
final class CrashAfterJournal {
    private final PorServer server;
    private final Path dir;
    private final PorCodec codec;
    private final MessageType type;
    private Map<Path, byte[]> before;
    private byte[] record;
    private int index = -1;

    CrashAfterJournal(PorServer server, Path dir, ServerParameters params, MessageType type) {
        this.server = server;
        this.dir = dir;
        this.codec = new PorCodec(params);
        this.type = type;
    }

    PorServer proxy() {
        return (PorServer) Proxy.newProxyInstance(PorServer.class.getClassLoader(), new Class<?>[] {PorServer.class},
                (p, method, args) -> {
                    if (type == MessageType.REBUILD_C && method.getName().equals("pacesClientPart")) {
                        return false; // as to a client from before the client's part was paced: it sends REBUILD_C
                    }
                    if (before == null && recordOf(method.getName(), args) != null) {
                        before = segments();
                        record = recordOf(method.getName(), args);
                        index = type == MessageType.WRITE ? (int) args[0] : -1;
                    }
                    try {
                        return method.invoke(server, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private byte[] recordOf(String method, Object[] args) {
        if (type == MessageType.WRITE && method.equals("write") && args[3] != null) {
            return codec.write((int) args[0], (byte[]) args[1], (byte[]) args[2], (SealedVectors) args[3]);
        }
        if (type == MessageType.REBUILD_C && method.equals("rebuildC")) {
            return codec.rebuildC((SealedLevel) args[0]);
        }
        if (type == MessageType.REBUILD_C_PACED && method.equals("rebuildCPaced")) {
            return new byte[0];
        }
        if (type == MessageType.RESYNC && method.equals("resync")) {
            return codec.resync((long) args[0], (SealedLevel) args[1]);
        }
        return null;
    }

    /** The journal's segment files and their bytes, oldest first. */
    private Map<Path, byte[]> segments() throws IOException {
        Map<Path, byte[]> out = new TreeMap<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, SegmentedJournal.PREFIX + "*")) {
            for (Path file : files) {
                out.put(file, Files.readAllBytes(file));
            }
        }
        return out;
    }

    /** The block index of the journaled write (-1 for a C rebuild or a resynchronisation). */
    int index() {
        return index;
    }

    /** With the server closed: the journal as it was when the call's record had just been forced. */
    void rewindJournal() {
        if (before == null) {
            throw new IllegalStateException("no " + type + " went through");
        }
        try {
            for (Path segment : segments().keySet()) {
                Files.delete(segment);
            }
            Path newest = null;
            for (Map.Entry<Path, byte[]> e : before.entrySet()) {
                Files.write(e.getKey(), e.getValue());
                newest = e.getKey();
            }
            List<ServerJournal.Entry> entries = new ArrayList<>();
            try (ServerJournal j = ServerJournal.open(newest, Integer.MAX_VALUE, entries, List.of())) {
                j.append(type.code(), record);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
