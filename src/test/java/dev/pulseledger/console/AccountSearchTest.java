package dev.pulseledger.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.ConsoleClient;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Account search in the console on both stores: by name prefix, case-insensitively, paged by keyset. */
class AccountSearchTest {
    private static final Pattern ROW =
            Pattern.compile("<tr data-account=\"(acct_[0-9a-z]+)\">\\s*<td><a [^>]*>([^<]*)</a>");
    private static final Pattern NEXT = Pattern.compile("after=(acct_[0-9a-z]+)\" rel=\"next\"");

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void findsEveryAccountWhoseNameStartsWithTheQueryAcrossPages(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            for (int i = 0; i < 30; i++) {
                // The last one has a character beyond U+FFFF right after the prefix: the range must still hold it.
                String prefix = i == 29 ? "Acme\uD83D\uDE00" : (i % 2 == 0 ? "Acme " : "ACME-");
                create(node, prefix + String.format("%02d", i));
            }
            create(node, "Acmf Ltd");
            create(node, "Zeta Acme");
            String id = create(node, "Lonely Co");
            ConsoleClient console = new ConsoleClient(node.baseUrl());
            assertThat(console.signIn(TestNode.ADMIN_KEY).statusCode()).isEqualTo(303);

            List<String> names = new ArrayList<>();
            String path = "/console/accounts?q=acme";
            int pages = 0;
            while (path != null) {
                HttpResponse<String> page = console.get(path);
                assertThat(page.statusCode()).isEqualTo(200);
                Matcher rows = ROW.matcher(page.body());
                while (rows.find()) {
                    names.add(rows.group(2));
                }
                Matcher next = NEXT.matcher(page.body());
                path = next.find() ? "/console/accounts?q=acme&after=" + next.group(1) : null;
                pages++;
            }

            assertThat(pages).isEqualTo(2);
            assertThat(names)
                    .hasSize(30)
                    .allMatch(name -> name.toLowerCase(Locale.ROOT).startsWith("acme"));
            assertThat(names).doesNotHaveDuplicates().isSortedAccordingTo(String.CASE_INSENSITIVE_ORDER);
            assertThat(console.get("/console/accounts?q=" + id).body()).contains("Lonely Co");
            assertThat(console.get("/console").statusCode()).isEqualTo(200);
        }
    }

    private static String create(TestNode node, String name) {
        return node.admin()
                .post("/admin/accounts", Map.of("name", name))
                .json()
                .get("id")
                .asText();
    }
}
