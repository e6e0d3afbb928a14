package dev.pulseledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.LogCapture;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a node says as it starts, and the files it makes: private, and never a secret in the log. */
class StartupLogTest {
    @TempDir
    Path temp;

    @Test
    void theLogNamesTheUrlTheDatabaseFileTheAdminKeyPrefixAndHowToReplaceALostKey() {
        Path file = temp.resolve("data/ledger.db");
        try (LogCapture logs = new LogCapture();
                TestNode node = TestNode.start("jdbc:sqlite:" + file)) {
            String log = String.join("\n", logs.lines());
            assertThat(log)
                    .contains("listening on " + node.baseUrl() + "/")
                    .contains("SQLite at " + file)
                    .contains("Admin key in force: the configured key")
                    .contains("test…")
                    .contains("Lost it? Restart with --admin-key")
                    .doesNotContain(TestNode.ADMIN_KEY);
        }
    }

    @Test
    void thePostgresqlUrlIsLoggedAsHostAndDatabaseWithoutUserOrPassword() {
        String url = TestStore.POSTGRESQL.newDatabaseUrl() + "&password=hunter2-never-logged";
        try (LogCapture logs = new LogCapture();
                TestNode node = TestNode.start(url)) {
            String log = String.join("\n", logs.lines());
            String database = url.substring(url.lastIndexOf('/') + 1, url.indexOf('?'));
            assertThat(log)
                    .containsPattern("PostgreSQL at [^ ]+:\\d+/" + database)
                    .doesNotContain("hunter2-never-logged")
                    .doesNotContain("user=postgres");
        }
    }

    @Test
    void aNewDataFolderIsPrivateToItsOwnerAndSoIsTheDatabaseFile() throws Exception {
        Path folder = temp.resolve("fresh/data");
        Path file = folder.resolve("pulseledger.db");
        try (TestNode node = TestNode.start("jdbc:sqlite:" + file)) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(folder)))
                    .isEqualTo("rwx------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                    .isEqualTo("rw-------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(temp.resolve("fresh"))))
                    .isEqualTo("rwx------");
        }
    }
}
