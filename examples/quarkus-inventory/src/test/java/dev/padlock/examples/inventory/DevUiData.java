package dev.padlock.examples.inventory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Padlock's Dev UI data as the page receives it, read without a browser, the way Quarkus tests its own Dev UI pages:
 * the build-time data the card's tables show ({@code /q/dev-ui/<extension>-data.js}), and the live page's JSON-RPC
 * service ({@code /q/dev-ui/json-rpc-ws}).
 */
final class DevUiData {
    /** The Dev UI's name for Padlock's extension: its runtime artifact. */
    static final String EXTENSION = "padlock-quarkus";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final AtomicInteger IDS = new AtomicInteger();

    private final URI app;

    DevUiData(URI app) {
        this.app = app;
    }

    /**
     * The build-time data by name: the script holds one {@code export const <name> = <JSON>;} per value.
     *
     * @throws IllegalStateException when the script is missing or holds something else
     */
    Map<String, JsonNode> buildTimeData() throws IOException, InterruptedException {
        URI script = app.resolve("q/dev-ui/" + EXTENSION + "-data.js");
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(script).timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(
                    "GET " + script + " answered " + response.statusCode() + ": " + response.body());
        }
        Map<String, JsonNode> data = new LinkedHashMap<>();
        for (String statement : response.body().split(";\\s*\\n")) {
            String trimmed = statement.strip();
            if (!trimmed.startsWith("export const ")) {
                continue;
            }
            int equals = trimmed.indexOf('=');
            String name = trimmed.substring("export const ".length(), equals).strip();
            String value = trimmed.substring(equals + 1).strip();
            data.put(name, JSON.readTree(value.endsWith(";") ? value.substring(0, value.length() - 1) : value));
        }
        if (data.isEmpty()) {
            throw new IllegalStateException(script + " holds no build-time data:\n" + response.body());
        }
        return data;
    }

    /**
     * Calls a method of Padlock's JSON-RPC service, as the live page does, and returns its result.
     *
     * @throws IllegalStateException when the service answers with an error
     */
    JsonNode call(String method) throws Exception {
        int id = IDS.incrementAndGet();
        // The Dev UI's own client names a method <extension>_<method>.
        ObjectNode request =
                JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", EXTENSION + "_" + method);
        request.putObject("params");
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        URI endpoint = URI.create("ws://" + app.getAuthority() + "/q/dev-ui/json-rpc-ws");
        WebSocket socket = HttpClient.newHttpClient()
                .newWebSocketBuilder()
                .connectTimeout(TIMEOUT)
                .buildAsync(endpoint, new Replies(id, answer))
                .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        try {
            socket.sendText(JSON.writeValueAsString(request), true);
            JsonNode reply = answer.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            if (reply.has("error")) {
                throw new IllegalStateException(method + " failed: " + reply.get("error") + knownMethods());
            }
            JsonNode result = reply.get("result");
            // Quarkus wraps a result as {"messageType": ..., "object": ...}.
            return result != null && result.has("object") ? result.get("object") : result;
        } finally {
            socket.abort();
        }
    }

    /** For a message: the JSON-RPC methods the Dev UI knows, as its own client reads them. */
    private String knownMethods() {
        try {
            String known = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(app.resolve("q/dev-ui/devui-jsonrpc-data.js"))
                                    .timeout(TIMEOUT)
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            return "\nThe Dev UI's JSON-RPC methods: " + known;
        } catch (IOException | InterruptedException e) {
            return "";
        }
    }

    /** Collects text frames into messages and completes the answer with the reply to {@code id}. */
    private static final class Replies implements WebSocket.Listener {
        private final int id;
        private final CompletableFuture<JsonNode> answer;
        private final StringBuilder message = new StringBuilder();

        Replies(int id, CompletableFuture<JsonNode> answer) {
            this.id = id;
            this.answer = answer;
        }

        @Override
        public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
            message.append(data);
            if (last) {
                try {
                    JsonNode reply = JSON.readTree(message.toString());
                    if (reply.path("id").asInt(-1) == id) {
                        answer.complete(reply);
                    }
                } catch (IOException e) {
                    answer.completeExceptionally(e);
                }
                message.setLength(0);
            }
            socket.request(1);
            return null;
        }

        @Override
        public void onError(WebSocket socket, Throwable error) {
            answer.completeExceptionally(error);
        }

        @Override
        public CompletionStage<?> onClose(WebSocket socket, int status, String reason) {
            answer.completeExceptionally(
                    new IllegalStateException("The Dev UI closed the JSON-RPC socket: " + status + " " + reason));
            return null;
        }
    }
}
