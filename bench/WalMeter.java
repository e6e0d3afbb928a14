import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * What a measured run cost PostgreSQL in WAL (bytes and full-page images, from the cluster's
 * {@code pg_stat_wal}) and in blocks read outside {@code shared_buffers} (its database's
 * {@code pg_stat_database}), per request: why one size of the scale case costs more than another.
 * Also counts the cluster's WAL segment files, whose making stalls the commit that needs one.
 */
final class WalMeter {
    /** PostgreSQL backends flush their statistics at most once a second, and within a second of going idle. */
    private static final long STATS_FLUSH_MILLIS = 1_500;
    private static final String SNAPSHOT = "SELECT w.wal_bytes, w.wal_fpi, d.blks_read, d.blks_hit"
            + " FROM pg_stat_wal w, pg_stat_database d WHERE d.datname = current_database()";

    private static final String WAL_FILES = "SELECT count(*) FROM pg_ls_waldir()";
    private static final String INSUFFICIENT_PRIVILEGE = "42501";

    /** The counters at one moment. */
    record Snapshot(double walBytes, long fullPageImages, long blocksRead, long blocksHit, OptionalLong walFiles) {}

    private final String url;

    WalMeter(String url) {
        this.url = url;
    }

    Snapshot snapshot() throws SQLException, InterruptedException {
        Thread.sleep(STATS_FLUSH_MILLIS);
        try (Connection connection = DriverManager.getConnection(url);
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery(SNAPSHOT)) {
            rs.next();
            return new Snapshot(rs.getDouble(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), walFiles(statement));
        }
    }

    /**
     * The files in the cluster's {@code pg_wal} now, or empty when the bench's role may not list them
     * (a superuser or a member of {@code pg_monitor} may). Until {@code pg_wal} holds the WAL written between
     * two checkpoints, PostgreSQL makes a file (16 MB of zeros, then a sync) each time it needs one instead
     * of reusing an old one, and the commit that needs it waits.
     */
    static OptionalLong walFiles(String url) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url);
                Statement statement = connection.createStatement()) {
            return walFiles(statement);
        }
    }

    private static OptionalLong walFiles(Statement statement) throws SQLException {
        try (ResultSet rs = statement.executeQuery(WAL_FILES)) {
            rs.next();
            return OptionalLong.of(rs.getLong(1));
        } catch (SQLException e) {
            if (INSUFFICIENT_PRIVILEGE.equals(e.getSQLState())) {
                return OptionalLong.empty();
            }
            throw e;
        }
    }

    /** "pg_wal +N files", or empty where the growth was not counted. */
    static String grownText(OptionalLong grown) {
        return grown.isPresent() ? "pg_wal +" + grown.getAsLong() + " files" : "";
    }

    /** By how many files pg_wal grew between two counts, where both were taken. */
    static OptionalLong grownBy(OptionalLong before, OptionalLong after) {
        return before.isPresent() && after.isPresent()
                ? OptionalLong.of(after.getAsLong() - before.getAsLong())
                : OptionalLong.empty();
    }

    /** The cost between two snapshots per request, as a short text. */
    static String perRequest(Snapshot before, Snapshot after, long requests) {
        double n = Math.max(1, requests);
        long read = after.blocksRead() - before.blocksRead();
        long hit = after.blocksHit() - before.blocksHit();
        String walFiles = grownText(grownBy(before.walFiles(), after.walFiles()));
        return String.format(Locale.ROOT, "WAL %.1f kB/request (%.2f full-page images), %.2f blocks read outside"
                        + " shared_buffers/request (%.1f%% of blocks)%s",
                (after.walBytes() - before.walBytes()) / 1024 / n,
                (after.fullPageImages() - before.fullPageImages()) / n,
                read / n,
                100.0 * read / Math.max(1, read + hit),
                walFiles.isEmpty() ? "" : ", " + walFiles);
    }
}
