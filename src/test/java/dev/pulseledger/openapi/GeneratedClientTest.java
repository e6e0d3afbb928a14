package dev.pulseledger.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.client.ApiClient;
import dev.pulseledger.client.ApiException;
import dev.pulseledger.client.api.EventsApi;
import dev.pulseledger.client.api.PulseApi;
import dev.pulseledger.client.api.ReservationsApi;
import dev.pulseledger.client.api.TokensApi;
import dev.pulseledger.client.model.PartialRevert;
import dev.pulseledger.client.model.Reservation;
import dev.pulseledger.client.model.ReservationChange;
import dev.pulseledger.client.model.ReservationCreate;
import dev.pulseledger.client.model.ReservationSettle;
import dev.pulseledger.client.model.Reverted;
import dev.pulseledger.client.model.Spending;
import dev.pulseledger.client.model.Spent;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A Java client that openapi-generator made from our document at build time (see pom.xml) drives a
 * real node through every caller operation: what the document says is what the server does.
 */
class GeneratedClientTest {
    /** The caller operations this test calls; the document must have no other. */
    private static final Set<String> CALLED = Set.of(
            "getPulse",
            "listPulseIncidents",
            "getServiceUptime",
            "streamPulse",
            "streamAccount",
            "getBalance",
            "getUsage",
            "getPlan",
            "getSla",
            "getKey",
            "spendTokens",
            "listSpendings",
            "getSpending",
            "revertSpending",
            "createReservation",
            "getReservation",
            "listReservations",
            "settleReservation",
            "releaseReservation");

    @Test
    void everyCallerOperationWorksThroughTheGeneratedClient() throws Exception {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            assertThat(node.admin()
                            .put("/admin/services/api", Map.of("name", "API", "status", "operational", "public", true))
                            .status())
                    .isEqualTo(201);
            String key = new Fixtures(node).caller(1000).key();
            ApiClient client = client(node, key);
            TokensApi tokens = new TokensApi(client);
            PulseApi pulse = new PulseApi(client);

            assertThat(pulse.getPulse(null, null).getServices())
                    .anySatisfy(service -> assertThat(service.getId()).isEqualTo("api"));
            assertThat(pulse.listPulseIncidents(10, null, null).getData()).isEmpty();
            assertThat(pulse.getServiceUptime("api", 7, null).getServiceId()).isEqualTo("api");

            assertThat(tokens.getBalance(null, null, null).getBalance().getBalance())
                    .isEqualTo(1000);
            assertThat(tokens.getPlan(null).getId()).isNotBlank();
            assertThat(tokens.getSla(null).getSla()).isNull();
            assertThat(tokens.getKey(null).getBudgets()).isEmpty();
            Spent spent = tokens.spendTokens(100, "order-1", null, null);
            assertThat(spent.getBalance()).isEqualTo(900);
            assertThat(tokens.spendTokens(100, "order-1", null, null).getSpendingId())
                    .as("an idempotent replay")
                    .isEqualTo(spent.getSpendingId());
            assertThat(tokens.listSpendings(20, null, null).getData())
                    .extracting(Spending::getSpendingId)
                    .containsExactly(spent.getSpendingId());
            assertThat(tokens.getSpending(spent.getSpendingId(), null).getAmount())
                    .isEqualTo(100);
            Reverted part =
                    tokens.revertSpending(spent.getSpendingId(), "part-1", null, new PartialRevert().amount(40));
            assertThat(part.getStatus()).isEqualTo(Reverted.StatusEnum.PARTIALLY_REVERTED);
            assertThat(part.getBalance()).isEqualTo(940);
            // The generated client sends JSON null for a left-out body, which the API refuses as malformed
            // input: the rest is reverted by amount here (the bodiless revert has its own contract tests).
            Reverted reverted =
                    tokens.revertSpending(spent.getSpendingId(), null, null, new PartialRevert().amount(60));
            assertThat(reverted.getStatus()).isEqualTo(Reverted.StatusEnum.REVERTED);
            assertThat(tokens.getBalance(null, null, null).getBalance().getBalance())
                    .isEqualTo(1000);
            assertThat(tokens.getUsage(null, null, null, null, null, null)
                            .getTotal()
                            .getSpent())
                    .isEqualTo(100);

            ReservationsApi reservations = new ReservationsApi(client);
            ReservationChange held = reservations.createReservation(
                    new ReservationCreate().amount(400).expiresInSeconds(60), "hold-1", null);
            assertThat(held.getStatus()).isEqualTo(ReservationChange.StatusEnum.HELD);
            assertThat(held.getBalance()).isEqualTo(600);
            assertThat(reservations
                            .getReservation(held.getReservationId(), null)
                            .getAmount())
                    .isEqualTo(400);
            assertThat(reservations.listReservations("held", 10, null, null).getData())
                    .extracting(Reservation::getReservationId)
                    .containsExactly(held.getReservationId());
            ReservationChange settled =
                    reservations.settleReservation(held.getReservationId(), null, new ReservationSettle().amount(150));
            assertThat(settled.getSettledAmount()).isEqualTo(150);
            assertThat(settled.getBalance()).isEqualTo(850);
            ReservationChange other = reservations.createReservation(new ReservationCreate().amount(50), null, null);
            assertThat(reservations
                            .releaseReservation(other.getReservationId(), null)
                            .getStatus())
                    .isEqualTo(ReservationChange.StatusEnum.RELEASED);
            assertThatThrownBy(() -> reservations.settleReservation(
                            other.getReservationId(), null, new ReservationSettle().amount(1)))
                    .isInstanceOfSatisfying(
                            ApiException.class, e -> assertThat(e.getCode()).isEqualTo(409));

            assertThatThrownBy(() -> tokens.spendTokens(5000, null, null, null))
                    .isInstanceOfSatisfying(
                            ApiException.class, e -> assertThat(e.getCode()).isEqualTo(402));

            // The stream never ends on its own: look at the response the client got, then hang up.
            AtomicReference<HttpResponse<?>> stream = new AtomicReference<>();
            client.setResponseInterceptor(response -> {
                stream.set(response);
                try {
                    response.body().close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            assertThatThrownBy(() -> new EventsApi(client).streamPulse(null, null))
                    .isInstanceOf(ApiException.class);
            assertThat(stream.get().statusCode()).isEqualTo(200);
            assertThat(stream.get().headers().firstValue("Content-Type").orElseThrow())
                    .startsWith("text/event-stream");
            stream.set(null);
            assertThatThrownBy(() -> new EventsApi(client).streamAccount(null, null))
                    .isInstanceOf(ApiException.class);
            assertThat(stream.get().statusCode()).isEqualTo(200);

            assertThat(callerOperations(node)).isEqualTo(new TreeSet<>(CALLED));
        }
    }

    private static ApiClient client(TestNode node, String key) {
        ApiClient client = new ApiClient();
        client.updateBaseUri(node.baseUrl());
        client.setRequestInterceptor(request -> request.header("X-ApiKey", key));
        return client;
    }

    private static Set<String> callerOperations(TestNode node) {
        Set<String> operations = new TreeSet<>();
        for (Map.Entry<String, JsonNode> path :
                node.anonymous().get("/openapi.json").json().path("paths").properties()) {
            if (path.getKey().startsWith("/api/")) {
                path.getValue().forEach(operation -> {
                    if (operation.has("operationId")) {
                        operations.add(operation.get("operationId").asText());
                    }
                });
            }
        }
        return operations;
    }
}
