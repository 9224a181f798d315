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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Makes the journal of a {@link JournaledPorServer} look as a crash right after one call was journaled leaves it:
 * the proxy passes every call through, keeps the journal as it was before the first call of {@code type}, and
 * {@link #rewindJournal} (with the server closed) puts back that journal plus the call's record. The files then
 * hold the call's changes, whole or (after a test garbles them) in part: what the replay must cope with.
 */
final class CrashAfterJournal {
    private final PorServer server;
    private final Path journal;
    private final PorCodec codec;
    private final MessageType type;
    private byte[] before;
    private byte[] record;
    private int index = -1;

    CrashAfterJournal(PorServer server, Path dir, ServerParameters params, MessageType type) {
        this.server = server;
        this.journal = dir.resolve("journal");
        this.codec = new PorCodec(params);
        this.type = type;
    }

    PorServer proxy() {
        return (PorServer) Proxy.newProxyInstance(PorServer.class.getClassLoader(), new Class<?>[] {PorServer.class},
                (p, method, args) -> {
                    if (before == null && recordOf(method.getName(), args) != null) {
                        before = Files.readAllBytes(journal);
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
        if (type == MessageType.RESYNC && method.equals("resync")) {
            return codec.resync((long) args[0], (SealedLevel) args[1]);
        }
        return null;
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
            Files.write(journal, before);
            List<ServerJournal.Entry> entries = new ArrayList<>();
            try (ServerJournal j = ServerJournal.open(journal, Integer.MAX_VALUE, entries, List.of())) {
                j.append(type.code(), record);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
