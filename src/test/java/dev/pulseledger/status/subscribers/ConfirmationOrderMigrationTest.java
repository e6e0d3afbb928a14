package dev.pulseledger.status.subscribers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.store.Dialect;
import dev.pulseledger.support.TestStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The upgrade to notices chosen by commit order (V281) on a database with subscribers: each one
 * confirmed before it is placed after the last notice written before its confirmation time (the old
 * rule's answer), so it keeps getting every later notice; one still pending has no place yet.
 */
class ConfirmationOrderMigrationTest {

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void confirmedSubscribersKeepTheirNoticesAcrossTheUpgrade(TestStore store) throws SQLException {
        String url = store.newDatabaseUrlMigratedTo("270");
        try (Connection connection = DriverManager.getConnection(url);
                Statement statement = connection.createStatement()) {
            statement.executeUpdate("INSERT INTO status_notices (id, type, payload, all_services, created_at)"
                    + " VALUES ('sn_1', 'status.incident.created', '{}', TRUE, 1000),"
                    + " ('sn_2', 'status.incident.updated', '{}', TRUE, 3000)");
            statement.executeUpdate("INSERT INTO status_subscribers (id, kind, email, all_services, created_at,"
                    + " confirmed_at, expires_at) VALUES ('ssub_early', 'email', 'early@example.org', TRUE, 1, 500,"
                    + " NULL), ('ssub_between', 'email', 'between@example.org', TRUE, 1, 2000, NULL),"
                    + " ('ssub_late', 'email', 'late@example.org', TRUE, 1, 4000, NULL),"
                    + " ('ssub_pending', 'email', 'pending@example.org', TRUE, 1, NULL, 99999999)");
        }

        Flyway.configure()
                .dataSource(url, null, null)
                .locations(Dialect.fromUrl(url).migrations())
                .outOfOrder(true)
                .load()
                .migrate();

        Map<String, Long> places = new HashMap<>();
        try (Connection connection = DriverManager.getConnection(url);
                Statement statement = connection.createStatement();
                ResultSet rs =
                        statement.executeQuery("SELECT s.id, s.confirmed_after_notice FROM status_subscribers s")) {
            while (rs.next()) {
                String id = rs.getString(1);
                long seq = rs.getLong(2);
                places.put(id, rs.wasNull() ? null : seq);
            }
        }
        long first = seqOf(url, "sn_1");
        long second = seqOf(url, "sn_2");
        assertThat(places.get("ssub_early")).as("confirmed before both notices").isZero();
        assertThat(places.get("ssub_between")).as("confirmed between them").isEqualTo(first);
        assertThat(places.get("ssub_late")).as("confirmed after both").isEqualTo(second);
        assertThat(places).containsEntry("ssub_pending", null);
    }

    private static long seqOf(String url, String noticeId) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url);
                PreparedStatement ps = connection.prepareStatement("SELECT seq FROM status_notices WHERE id = ?")) {
            ps.setString(1, noticeId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
