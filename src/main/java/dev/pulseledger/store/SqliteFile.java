package dev.pulseledger.store;

import dev.pulseledger.config.ConfigException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import java.util.Optional;

/**
 * The file behind an SQLite database URL, checked and created before the pool opens it: a folder
 * nobody can write, a file in the way or a path that is a folder stops start-up at once with one
 * line that names the path, instead of a minute of "waiting for the database". A new data folder is
 * made private to its owner (0700), a new database file likewise (0600); SQLite gives its -wal and
 * -shm files the permissions of the database file.
 */
final class SqliteFile {
    private static final String PREFIX = "jdbc:sqlite:";
    private static final String SETTING = "--database-url / PULSELEDGER_DATABASE_URL";
    private static final boolean POSIX =
            FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    private SqliteFile() {}

    /** The database file of the URL; empty for an in-memory database or a {@code file:} URI. */
    static Optional<Path> of(String jdbcUrl) {
        String file = jdbcUrl.substring(PREFIX.length());
        int query = file.indexOf('?');
        if (query >= 0) {
            file = file.substring(0, query);
        }
        if (file.isEmpty()) {
            throw new ConfigException(SETTING + ": " + jdbcUrl + " names no file; use jdbc:sqlite:<path to a file>.");
        }
        if (file.startsWith(":memory:") || file.startsWith("file:")) {
            return Optional.empty();
        }
        try {
            return Optional.of(Path.of(file).toAbsolutePath().normalize());
        } catch (InvalidPathException e) {
            throw new ConfigException(SETTING + ": " + file + " is not a usable path (" + e.getReason() + ").");
        }
    }

    /** Checks the path and creates what is missing, private to this user. */
    static void prepare(String jdbcUrl) {
        Optional<Path> found = of(jdbcUrl);
        if (found.isEmpty()) {
            return;
        }
        Path file = found.get();
        if (Files.isDirectory(file)) {
            throw new ConfigException(SETTING + ": " + file + " is a folder; name a database file, such as "
                    + file.resolve("pulseledger.db") + ".");
        }
        // Only the root has no parent, and the root is a folder.
        Path folder = Objects.requireNonNull(file.getParent(), "parent of " + file);
        if (!Files.exists(folder)) {
            try {
                Files.createDirectories(folder, permissions("rwx------"));
            } catch (IOException e) {
                throw new ConfigException(
                        "Cannot create the data folder " + folder + " (" + SETTING + "): " + reason(e) + ".");
            }
        } else if (!Files.isDirectory(folder)) {
            throw new ConfigException(SETTING + ": " + folder + " is not a folder.");
        }
        if (!Files.isWritable(folder)) {
            throw new ConfigException("The data folder " + folder + " is not writable by this user (" + SETTING
                    + "): SQLite writes its -wal and -shm files beside the database.");
        }
        if (!Files.exists(file)) {
            try {
                Files.createFile(file, permissions("rw-------"));
            } catch (FileAlreadyExistsException e) {
                // Another node starting beside this one made it first: it is the same empty file.
            } catch (IOException e) {
                throw new ConfigException(
                        "Cannot create the database file " + file + " (" + SETTING + "): " + reason(e) + ".");
            }
        } else if (!Files.isReadable(file) || !Files.isWritable(file)) {
            throw new ConfigException(
                    "The database file " + file + " is not readable and writable by this user (" + SETTING + ").");
        }
    }

    private static FileAttribute<?>[] permissions(String posix) {
        return POSIX
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(posix))}
                : new FileAttribute<?>[0];
    }

    private static String reason(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileSystemException fileSystem && fileSystem.getReason() != null) {
            return fileSystem.getReason() + " (" + fileSystem.getFile() + ")";
        }
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
}
