package io.coffer.keyserver.pki;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * The one rule for files that hold secrets (master key, gateway credentials, private keys of the key server and its
 * clients): they are created readable and writable by their owner only (0600), and one that group or others may
 * access is refused before it is read, as ssh refuses such private keys. On file systems without POSIX permissions
 * the directory's defaults apply and nothing is checked.
 */
public final class SecretFile {
    private static final Set<PosixFilePermission> OWNER_ONLY =
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

    private SecretFile() {
    }

    /**
     * Refuses {@code file} when group or others have any permission on it.
     *
     * @param what what the file is, for the message ("master key file", "credentials file" ...)
     */
    public static void checkPrivate(Path file, String what) throws IOException {
        if (!posix(file)) {
            return;
        }
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
        if (perms.stream().anyMatch(p -> p.name().startsWith("GROUP") || p.name().startsWith("OTHERS"))) {
            throw new IOException(what + " " + file + " is accessible by group or others (mode "
                    + PosixFilePermissions.toString(perms) + "); chmod 600 it");
        }
    }

    /** Creates {@code file}, empty, with mode 0600; fails with FileAlreadyExistsException if it exists. */
    public static void createPrivate(Path file) throws IOException {
        if (posix(file.toAbsolutePath().getParent())) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        } else {
            Files.createFile(file);
        }
    }

    private static boolean posix(Path p) {
        return p.getFileSystem().supportedFileAttributeViews().contains("posix");
    }
}
